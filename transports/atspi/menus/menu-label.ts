/**
 * A menu item's accessible name as people read it. Toolkits leave layout in it: an Xfce editor's GTK3
 * items read `"Save As...      "` (padding before the accelerator column), Qt-style labels carry the
 * accelerator after a tab (`"Open\tCtrl+O"`), and a toolkit that does not strip mnemonics leaves GTK's
 * underscore in (`"_Open"`). The label is shown and matched without them; the accelerator has its own field.
 */
export interface MenuLabel {
  readonly label: string;
  /** What followed a tab in the name, when the toolkit wrote the accelerator into the label. */
  readonly accelerator: string | null;
}

/** GTK's mnemonic rule: `_x` marks x, `__` is a literal underscore. */
export function withoutMnemonics(text: string): string {
  return text.replace(/_(.)/gs, '$1');
}

/**
 * `stripMnemonics` is for toolkits that report the label as written (GTK3's atk-bridge and Qt strip it
 * themselves, and there a remaining underscore is a literal one).
 */
export function menuLabel(name: string, stripMnemonics: boolean): MenuLabel {
  const tab = name.indexOf('\t');
  const shown = (tab < 0 ? name : name.slice(0, tab)).trim();
  const accelerator = tab < 0 ? '' : name.slice(tab + 1).trim();
  return {
    label: stripMnemonics ? withoutMnemonics(shown) : shown,
    accelerator: accelerator === '' ? null : accelerator,
  };
}

/**
 * Whether a step of a menu path the caller sent names this label: as written, trimmed, or without its
 * mnemonic underscores — so the padded label an earlier read showed and `_Save` both still find `Save`.
 */
export function labelMatches(label: string, step: string): boolean {
  const trimmed = menuLabel(step, false).label;
  return label === trimmed || label === withoutMnemonics(trimmed);
}

/**
 * The accelerator of a Qt menu item's key binding. Qt answers GetKeyBinding with its own shortcut text
 * (`Ctrl+O`, already as Electron writes it) when the item has a shortcut, and with its mnemonic as `Alt+C`
 * when it has none; `Alt+` and one letter of the label is taken for the mnemonic (null). A real Alt+letter
 * shortcut on a letter of its own label reads as a mnemonic too: Qt's answer does not tell them apart.
 */
export function qtAcceleratorOf(binding: string, label: string): string | null {
  const shortcut = binding.trim();
  if (shortcut === '') return null;
  const alone = /^Alt\+(.)$/i.exec(shortcut)?.[1];
  return alone && label.toLowerCase().includes(alone.toLowerCase()) ? null : shortcut;
}

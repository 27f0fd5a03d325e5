import type { DialogAnswer, DialogRule, NativeDialogType } from '../contract/native.js';
import type { AgentCore, ElectronLike, Loose } from './shapes.js';

export interface DialogHooks {
  setPolicy(rules: readonly DialogRule[]): void;
}

/**
 * Replaces dialog.showOpenDialog / showSaveDialog / showMessageBox and their Sync forms with answers from a
 * per-session policy; what no rule answers is cancelled, never shown, so nothing waits for a person who is
 * not there. Every call is reported. Self-contained (shipped as source).
 */
export function installDialogHooks(electron: ElectronLike, agent: AgentCore): DialogHooks {
  /** Options are reported as JSON up to this many characters: enough to read, bounded for a hostile app. */
  const MAX_OPTIONS_JSON = 2_000;
  const { dialog } = electron;
  let rules: DialogRule[] = [];
  if (!dialog) return { setPolicy: () => {} };

  /** The window argument is optional and comes first, as in Electron. */
  const optionsOf = (args: Loose[]): Loose =>
    [...args].reverse().find((arg) => arg && typeof arg === 'object' && !('webContents' in arg)) ?? {};
  /** Electron's default cancelId: the first button labelled Cancel or No, else 0. */
  const cancelIdOf = (options: Loose): number => {
    if (typeof options.cancelId === 'number') return options.cancelId;
    const buttons: unknown[] = Array.isArray(options.buttons) ? options.buttons : [];
    const index = buttons.findIndex((label) => /^(cancel|no)$/i.test(String(label).replace(/&/g, '')));
    return index === -1 ? 0 : index;
  };
  const optionsJson = (options: Loose) => {
    let json: string;
    try {
      json =
        JSON.stringify(options, (_key, value) => (typeof value === 'function' ? undefined : value)) ?? '{}';
    } catch {
      json = '{}';
    }
    return json.length > MAX_OPTIONS_JSON ? `${json.slice(0, MAX_OPTIONS_JSON)}…` : json;
  };
  const answer = (type: NativeDialogType, sync: boolean, args: Loose[]): DialogAnswer => {
    const options = optionsOf(args);
    const index = rules.findIndex((rule) => rule.type === type);
    const rule = index === -1 ? undefined : rules[index];
    if (rule?.once) rules.splice(index, 1);
    const answered = rule !== undefined && rule.cancel !== true;
    const filePaths = answered ? [...(rule.filePaths ?? [])] : [];
    const result: DialogAnswer = {
      canceled: !answered,
      filePaths: type === 'save' ? filePaths.slice(0, 1) : type === 'open' ? filePaths : [],
      response: type === 'messageBox' ? (answered ? (rule.response ?? 0) : cancelIdOf(options)) : null,
      checkboxChecked: answered
        ? (rule.checkboxChecked ?? options.checkboxChecked === true)
        : options.checkboxChecked === true,
    };
    agent.emit({
      kind: 'dialog',
      call: {
        type,
        sync,
        title: String(options.title ?? ''),
        message: String(options.message ?? ''),
        options: optionsJson(options),
        answer: result,
        answeredBy: rule ? 'policy' : 'cancel',
        time: new Date().toISOString(),
      },
    });
    return result;
  };
  // Electron's return shapes: open → { canceled, filePaths } (sync: paths or undefined), save → { canceled,
  // filePath } (sync: the path, '' when cancelled), message box → { response, checkboxChecked } (sync: response).
  dialog.showOpenDialog = async (...args: Loose[]) => {
    const { canceled, filePaths } = answer('open', false, args);
    return { canceled, filePaths };
  };
  dialog.showOpenDialogSync = (...args: Loose[]) => {
    const { canceled, filePaths } = answer('open', true, args);
    return canceled ? undefined : filePaths;
  };
  dialog.showSaveDialog = async (...args: Loose[]) => {
    const { canceled, filePaths } = answer('save', false, args);
    return { canceled, filePath: filePaths[0] ?? '' };
  };
  dialog.showSaveDialogSync = (...args: Loose[]) => answer('save', true, args).filePaths[0] ?? '';
  dialog.showMessageBox = async (...args: Loose[]) => {
    const { response, checkboxChecked } = answer('messageBox', false, args);
    return { response, checkboxChecked };
  };
  dialog.showMessageBoxSync = (...args: Loose[]) => answer('messageBox', true, args).response;
  return {
    setPolicy(next) {
      rules = [...next];
    },
  };
}

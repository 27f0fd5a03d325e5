import { fileURLToPath } from 'node:url';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportRealElectronSkipped } from './helpers/fixture-app.js';
import { FIXTURE_HOSTS, type FixtureSession, type Loose } from './helpers/fixture-session.js';

for (const host of FIXTURE_HOSTS) {
  describe(host.name, () => {
    let app: FixtureSession;
    beforeAll(async () => {
      app = await host.start();
    });
    afterAll(() => app?.stop());

    const TRAY_PNG = fileURLToPath(new URL('../fixtures/app/tray.png', import.meta.url));
    const act = (mutation: string, selection = 'target { ref role name value states }') =>
      app.data(`mutation { ${mutation} { ${selection} } }`);
    const statusIs = (text: string) =>
      app.data(
        `mutation { expect(kind: TEXT, target: { testId: "status" }, equals: ${JSON.stringify(text)}) { actual } }`,
      );
    const nodeOf = async (role: string, name: string) =>
      (
        await app.data(
          `{ session { window { find(role: "${role}", name: "${name}") { ref value states bbox { y } } } } }`,
        )
      ).session.window.find[0];

    describe(`actions through the gateway on ${host.name}`, () => {
      it('click: by test id, role + name, text and ref; double click with a modifier', async () => {
        const byRole = await act('click(target: { role: "button", name: "Log to console" })');
        expect(byRole.click.target).toMatchObject({ role: 'button', name: 'Log to console' });
        await act('click(target: { text: "Far Button" })');
        await statusIs('Far button clicked');
        await act('click(target: { testId: "double" }, clickCount: 2, modifiers: [Shift])');
        await statusIs('Double clicked with Shift');
        await act(`click(target: { ref: "${byRole.click.target.ref}" }, position: { x: 2, y: 2 })`);
      });

      it('fill and clear set values; type sends real key presses; press sends a key or chord', async () => {
        const filled = await act('fill(target: { role: "textbox", name: "Name" }, value: "Ada")');
        expect(filled.fill.target.value).toBe('Ada');
        await act('clear(target: { testId: "name" })');
        expect((await nodeOf('textbox', 'Name')).value).toBe('');
        await act('type(target: { testId: "shortcut" }, text: "ab")');
        expect((await nodeOf('textbox', 'Shortcut')).value).toBe('ab');
        await act('press(target: { testId: "shortcut" }, key: "Control+Home")');
        await statusIs('Key: Control+Home');
        await act('press(key: "Enter")', 'windowId');
        await statusIs('Key: Enter');
        // A key no keyboard has is the caller's mistake, with or without a target (it answered INTERNAL without one).
        for (const on of ['', 'target: { testId: "shortcut" }, '])
          expect(await app.failure(`mutation { press(${on}key: "") { windowId } }`)).toMatchObject({
            code: 'BAD_INPUT',
            retryable: false,
          });
        // So is a selector Playwright cannot parse (it answered INTERNAL; the fuzz found both).
        expect(await app.failure('mutation { click(target: { selector: " " }) { windowId } }')).toMatchObject(
          {
            code: 'SELECTOR_SYNTAX',
            retryable: false,
          },
        );
      });

      it('hover, focus, selectOption, setChecked and dragTo change the page as a person would', async () => {
        await act('hover(target: { testId: "hover-target" })');
        await app.data(
          'mutation { expect(kind: TEXT, target: { testId: "hover-status" }, equals: "Hovered") { actual } }',
        );
        const focused = await act('focus(target: { testId: "name" })');
        expect(focused.focus.target.states).toContain('FOCUSED');
        const selected = await act('selectOption(target: { testId: "color" }, labels: ["Green"])');
        expect(selected.selectOption.target.value).toBe('Green');
        await statusIs('Color: green');
        await act('selectOption(target: { testId: "color" }, indexes: [2])');
        await statusIs('Color: blue');
        const checked = await act(
          'setChecked(target: { role: "checkbox", name: "Subscribe" }, checked: true)',
        );
        expect(checked.setChecked.target.states).toContain('CHECKED');
        await act('dragTo(target: { testId: "drag-source" }, to: { testId: "drop-zone" })');
        await statusIs('Dropped: payload');
      });

      it('scrolls an element into view and a scroll container by a delta', async () => {
        await act('scroll(target: { testId: "scroll-area" }, deltaY: -5000)', 'windowId');
        const before = await nodeOf('button', 'Far Button');
        await act('scroll(target: { testId: "scroll-area" }, deltaY: 500)', 'windowId');
        const after = await nodeOf('button', 'Far Button');
        expect(after.bbox.y).toBe(before.bbox.y - 500);
        await act('scroll(target: { testId: "far-button" }, intoView: true)');
      });

      it('uploads a file from an allowed root and refuses one outside with PATH_NOT_ALLOWED', async () => {
        await act(`setInputFiles(target: { testId: "attachment" }, paths: [${JSON.stringify(TRAY_PNG)}])`);
        await statusIs('Attached: tray.png');
        const refused = await app.failure(
          'mutation { setInputFiles(target: { testId: "attachment" }, paths: ["/etc/hostname"]) { windowId } }',
        );
        expect(refused).toMatchObject({
          code: 'PATH_NOT_ALLOWED',
          details: { allowedRoots: [expect.any(String)] },
        });
      });

      it('follows a ref to its re-rendered twin even without a fresh snapshot', async () => {
        const done = (await app.data('{ session { window { find(role: "button", name: "Done") { ref } } } }'))
          .session.window.find;
        await act('click(target: { testId: "rerender" })');
        const result = await act(`click(target: { ref: "${done[2].ref}" })`);
        expect(result.click.target.ref).toBe(done[2].ref);
        await statusIs('Done: Water plants');
      });
    });

    describe(`action failures are actionable on ${host.name}`, () => {
      // Disabled, covered and not-editable are what Playwright saw before the timeout: give a loaded machine
      // time to look at least once (a 300 ms one at load 17 had not, and failed as a plain timeout).
      const fails = (mutation: string) => app.failure(`mutation { ${mutation} { windowId } }`);
      const parsesAll = (actions: string[]) => actions.every((action) => parse(action) !== undefined);

      it('a disabled target is ELEMENT_DISABLED, a covered one ELEMENT_OBSCURED naming the cover', async () => {
        const disabled = await fails('click(target: { testId: "archive" }, timeoutMs: 5000)');
        expect(disabled.code).toBe('ELEMENT_DISABLED');
        expect(parsesAll(disabled.nextActions)).toBe(true);
        const covered = await fails('click(target: { testId: "covered" }, timeoutMs: 5000)');
        expect(covered.code).toBe('ELEMENT_OBSCURED');
        expect(covered.message).toContain('Cookie banner');
      });

      it('no match is SELECTOR_NO_MATCH with similar refs; several matches are AMBIGUOUS_TARGET listing them', async () => {
        const missed = await fails('click(target: { role: "button", name: "Sbumit" }, timeoutMs: 200)');
        expect(missed.code).toBe('SELECTOR_NO_MATCH');
        expect(missed.similarRefs[0]).toMatchObject({ role: 'button', name: 'Submit' });
        expect(parsesAll(missed.nextActions)).toBe(true);
        const ambiguous = await fails('click(target: { role: "button", name: "Done" })');
        expect(ambiguous.code).toBe('AMBIGUOUS_TARGET');
        expect(ambiguous.details.count).toBe(3);
        await act('click(target: { role: "button", name: "Done", nth: 0 })');
        await statusIs('Done: Write report');
        await act('click(target: { role: "button", name: "Done", within: { role: "listitem", nth: 1 } })');
        await statusIs('Done: Review patch');
      });

      it('filling a button is ELEMENT_NOT_EDITABLE; a target named two ways is BAD_INPUT', async () => {
        expect((await fails('fill(target: { testId: "submit" }, value: "x", timeoutMs: 5000)')).code).toBe(
          'ELEMENT_NOT_EDITABLE',
        );
        expect((await fails('click(target: { testId: "submit", text: "Submit" })')).code).toBe('BAD_INPUT');
        expect((await fails('hover(target: { name: "Submit" })')).code).toBe('BAD_INPUT');
      });

      it('typing that would outlast its timeout is BAD_INPUT before a key is pressed, with a delay that fits', async () => {
        await act('clear(target: { testId: "shortcut" })');
        const slow = await fails(
          'type(target: { testId: "shortcut" }, text: "abcdef", delayMs: 900, timeoutMs: 1000)',
        );
        expect(slow).toMatchObject({ code: 'BAD_INPUT', details: { characters: 6, fitsDelayMs: 166 } });
        expect((await fails('type(target: { testId: "shortcut" }, text: "a", delayMs: 5000)')).code).toBe(
          'BAD_INPUT',
        );
        expect((await nodeOf('textbox', 'Shortcut')).value).toBe('');
        await act('type(target: { testId: "shortcut" }, text: "ab", delayMs: 20, timeoutMs: 1000)');
        expect((await nodeOf('textbox', 'Shortcut')).value).toBe('ab');
      });

      it('the server keeps serving after every failure', async () => {
        expect((await app.data('{ session { status } }')).session.status).toBe('RUNNING');
      });
    });

    describe(`secrets on ${host.name}`, () => {
      it('a password field and a fill marked secret never show their value, in results, snapshots or diffs', async () => {
        const password = 'hunter2-correct-horse';
        const token = 'tok-3f9a-very-private';
        const responses: Loose[] = [
          await app.send(
            `mutation { fill(target: { testId: "password" }, value: "${password}") { target { value } diff { changed { value } added { value } } } }`,
          ),
          await app.send(
            `mutation { fill(target: { testId: "name" }, value: "${token}", secret: true) { target { value } diff { changed { value } } } }`,
          ),
          await app.send('{ session { window { snapshot { nodes { name value text } } } } }'),
          await app.send(
            `mutation { fill(target: { testId: "submit" }, value: "${token}", secret: true, timeoutMs: 5000) { windowId } }`,
          ),
        ];
        expect(responses[3].errors[0].extensions.code).toBe('ELEMENT_NOT_EDITABLE');
        const wire = JSON.stringify(responses);
        expect(wire).not.toContain(password);
        expect(wire).not.toContain(token);
        expect(responses[0].data.fill.target.value).toBe('[redacted]');
        expect(responses[1].data.fill.target.value).toBe('[redacted]');
      });
    });
  });
}

reportRealElectronSkipped('actions');

import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickDocument, InteractiveNodesDocument } from './generated/graphql.js';
import { reportRealElectronSkipped } from './helpers/fixture-app.js';
import { FIXTURE_HOSTS, type FixtureSession, type Loose } from './helpers/fixture-session.js';
import { subscribe, wsClient } from './helpers/gateway.js';

for (const host of FIXTURE_HOSTS) {
  describe(host.name, () => {
    let app: FixtureSession;
    beforeAll(async () => {
      app = await host.start();
    });
    afterAll(() => app?.stop());

    const snapshot = async (args = '', fields = 'ref role name value states level') =>
      (
        await app.data(
          `{ session { window { snapshot${args ? `(${args})` : ''} { id rendererReloaded totalNodes hasMore endCursor truncated estimatedTokens nodes { ${fields} } } } } }`,
        )
      ).session.window.snapshot;
    const byName = (nodes: Loose[], role: string, name: string) =>
      nodes.find((node: Loose) => node.role === role && node.name === name);
    const click = (target: string, selection = 'elapsedMs') =>
      app.data(`mutation { click(target: ${target}) { ${selection} } }`);

    describe(`window snapshots through the gateway on ${host.name}`, () => {
      it('reads the fixture window as an accessibility graph with roles, names, values, states and levels', async () => {
        const { nodes } = await snapshot();
        expect(nodes[0]).toMatchObject({ role: 'document', name: 'Stagegraph Fixture' });
        expect(byName(nodes, 'heading', 'Stagegraph Fixture')).toMatchObject({ level: 1 });
        expect(byName(nodes, 'heading', 'Tasks')).toMatchObject({ level: 2 });
        expect(byName(nodes, 'textbox', 'Name')).toMatchObject({ value: '' });
        expect(byName(nodes, 'textbox', 'Password')).toBeDefined();
        expect(byName(nodes, 'checkbox', 'Subscribe')).toMatchObject({ states: [] });
        expect(byName(nodes, 'combobox', 'Color')).toMatchObject({ value: 'Red' });
        expect(byName(nodes, 'button', 'Archive')).toMatchObject({ states: ['DISABLED'] });
        expect(byName(nodes, 'region', 'Workbench')).toBeDefined();
        expect(nodes.filter((node: Loose) => node.role === 'listitem')).toHaveLength(3);
        expect(byName(nodes, 'text', 'Write report')).toBeDefined();
      });

      it('walks the graph: parent, children and text', async () => {
        const data = await app.data(
          '{ session { window { find(role: "list") { ref children { role text children { role name parent { role } } } } } } }',
        );
        const [list] = data.session.window.find;
        expect(list.children.map((item: Loose) => item.text)).toEqual([
          'Write report Done',
          'Review patch Done',
          'Water plants Done',
        ]);
        expect(list.children[0].children[1]).toEqual({
          role: 'button',
          name: 'Done',
          parent: { role: 'listitem' },
        });
      });

      it('lists only interactive nodes when asked, far smaller than the whole tree', async () => {
        const all = await snapshot('', 'ref role name');
        const interactive = await snapshot('interactiveOnly: true', 'ref role name');
        expect(interactive.totalNodes).toBeLessThan(all.totalNodes);
        expect(
          interactive.nodes.slice(1).every((node: Loose) => node.role !== 'text' && node.role !== 'listitem'),
        ).toBe(true);
        expect(interactive.estimatedTokens).toBeLessThan(all.estimatedTokens);
      });

      it('reads a window as a compact outline, priced by the same token budget', async () => {
        const data = await app.data(
          '{ session { window { snapshot(interactiveOnly: true) { estimatedTokens outline nodes { ref } } } } }',
        );
        const { outline, nodes } = data.session.window.snapshot;
        const lines = outline.split('\n');
        expect(lines).toHaveLength(nodes.length);
        expect(lines[0]).toMatch(/^e\d+ document "Stagegraph Fixture"$/);
        expect(lines).toContainEqual(expect.stringMatching(/^ e\d+ button "Archive" \[disabled\]$/));
        const json = await app.data(InteractiveNodesDocument, {});
        expect(outline.length).toBeLessThan(
          JSON.stringify(json.session?.window?.snapshot.nodes).length * 0.7,
        );
      });

      it('pages by first/after over one snapshot and stops early within a token budget', async () => {
        const first = await snapshot('first: 5', 'ref');
        expect(first.nodes).toHaveLength(5);
        expect(first.hasMore).toBe(true);
        const second = await snapshot(`first: 5, after: "${first.endCursor}"`, 'ref');
        expect(second.id).toBe(first.id);
        expect(second.nodes.map((n: Loose) => n.ref)).not.toContain(first.nodes[4].ref);
        const budgeted = await snapshot('budgetTokens: 60', 'ref role name');
        expect(budgeted.truncated).toBe(true);
        expect(budgeted.estimatedTokens).toBeLessThanOrEqual(60);
        expect(budgeted.nodes.length).toBeGreaterThan(0);
        // The estimate follows the selection: the same budget holds more nodes when fewer fields are asked for.
        const lean = await snapshot('budgetTokens: 60', 'ref');
        expect(lean.nodes.length).toBeGreaterThan(budgeted.nodes.length);
      });

      it('reads a subtree with `within` and limits levels with `depth`', async () => {
        const { nodes } = await snapshot();
        const region = byName(nodes, 'region', 'Workbench');
        const within = await snapshot(`within: "${region.ref}"`, 'ref role name');
        expect(within.nodes[0].ref).toBe(region.ref);
        expect(byName(within.nodes, 'button', 'Add task')).toBeDefined();
        expect(byName(within.nodes, 'textbox', 'Name')).toBeUndefined();
        const shallow = await snapshot(`within: "${region.ref}", depth: 1`, 'ref role name');
        expect(byName(shallow.nodes, 'list', '')).toBeDefined();
        expect(shallow.nodes.some((node: Loose) => node.role === 'listitem')).toBe(false);
      });

      it('finds nodes by role and name pattern, and reads one node by ref', async () => {
        const data = await app.data(
          '{ session { window { find(role: "button", nameRegex: "^(Add|Re-render)", enabled: true) { ref name } } } }',
        );
        const found = data.session.window.find;
        expect(found.map((node: Loose) => node.name)).toEqual(['Re-render tasks', 'Add task']);
        const node = await app.data(
          `{ session { window { node(ref: "${found[1].ref}") { ref role name } } } }`,
        );
        expect(node.session.window.node).toEqual({ ref: found[1].ref, role: 'button', name: 'Add task' });
      });

      it('keeps refs across a re-render of the list, and the kept ref acts on the new element', async () => {
        const before = (await snapshot('', 'ref role name')).nodes.filter((n: Loose) => n.name === 'Done');
        await click('{ testId: "rerender" }');
        const after = (await snapshot('', 'ref role name')).nodes.filter((n: Loose) => n.name === 'Done');
        expect(after.map((n: Loose) => n.ref)).toEqual(before.map((n: Loose) => n.ref));
        await click(`{ ref: "${after[1].ref}" }`);
        await app.data(
          'mutation { expect(kind: TEXT, target: { testId: "status" }, equals: "Done: Review patch") { actual } }',
        );
      });

      it('returns only what changed with since: LAST, and an action returns its own diff when selected', async () => {
        await snapshot();
        const result = await click(
          '{ testId: "add-task" }',
          'target { ref name } diff { added { role name } removed { ref } changed { ref changedFields } }',
        );
        expect(result.click.target.name).toBe('Add task');
        const added = result.click.diff.added.map((node: Loose) => `${node.role}:${node.name}`);
        expect(added).toEqual(expect.arrayContaining(['listitem:', 'text:Task 4', 'button:Done']));
        expect(result.click.diff.removed).toEqual([]);
        await click('{ testId: "add-task" }');
        const since = await app.data(
          '{ session { window { snapshot(since: "LAST") { nodes { ref } diff { added { role name } removed { ref } } } } } }',
        );
        expect(since.session.window.snapshot.nodes).toEqual([]);
        expect(since.session.window.snapshot.diff.added.map((n: Loose) => n.name)).toContain('Task 5');
        const quiet = await app.data('{ session { window { snapshot(since: "LAST") { diff { empty } } } } }');
        expect(quiet.session.window.snapshot.diff.empty).toBe(true);
      });

      it('says rendererReloaded after a reload, and an old ref is REF_STALE with a way back', async () => {
        const { nodes } = await snapshot();
        const submit = byName(nodes, 'button', 'Submit');
        await click('{ testId: "reload" }');
        await app.data(
          'mutation { expect(kind: COUNT, target: { role: "button", name: "Submit" }, equals: "1") { actual } }',
        );
        const reloaded = await snapshot();
        expect(reloaded.rendererReloaded).toBe(true);
        const stale = await app.failure(`mutation { click(target: { ref: "${submit.ref}" }) { elapsedMs } }`);
        expect(stale.code).toBe('REF_STALE');
        expect(stale.nextActions[0]).toMatch(/snapshot/);
        expect(() => parse(stale.nextActions[0])).not.toThrow();
        expect(stale.similarRefs[0]).toMatchObject({ role: 'button', name: 'Submit' });
        await app.data(ClickDocument, { target: { testId: 'stop-ticking' } });
      });

      it('refuses a ref never issued with REF_NOT_FOUND and next actions', async () => {
        const missing = await app.failure('mutation { click(target: { ref: "e99999" }) { elapsedMs } }');
        expect(missing.code).toBe('REF_NOT_FOUND');
        expect(missing.nextActions.length).toBeGreaterThan(0);
        const bad = await app.failure('{ session { window { snapshot(since: "w9#1") { id } } } }');
        expect(bad.code).toBe('BAD_INPUT');
      });

      it('streams live diffs of a window as its DOM changes', async () => {
        const client = wsClient(app.gateway.wsUrl);
        const changes = subscribe(
          client,
          parse('subscription { snapshotChanges { windowId snapshotId diff { added { role name } } } }'),
        );
        try {
          await new Promise((resolve) => setTimeout(resolve, 300));
          await click('{ testId: "add-task" }');
          const event = await changes.waitFor((value: Loose) =>
            value.snapshotChanges.diff.added.some((node: Loose) => node.name.startsWith('Task')),
          );
          expect(event).toMatchObject({ snapshotChanges: { windowId: 'w1' } });
          expect(changes.errors).toEqual([]);
        } finally {
          changes.dispose();
          await client.dispose();
        }
      });
    });
  });
}

reportRealElectronSkipped('window snapshots');

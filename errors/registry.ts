/**
 * The closed registry of error codes. Clients branch on `code`, never on prose, so a code is added here
 * (with its meaning, whether retrying can help, and a hint) before any code path may raise it; the type
 * `ErrorCode` makes an unregistered code a compile error and `registry.test.ts` scans the sources too.
 */
import { CLUSTER_ERROR_CODES } from './cluster-codes.js';
import type { ErrorCodeInfo } from './error-code-info.js';
import { GOVERNANCE_ERROR_CODES } from './governance-codes.js';
import { REQUEST_ERROR_CODES } from './request-codes.js';
import { VISION_ERROR_CODES } from './vision-codes.js';

export const ERROR_CODES = {
  BAD_INPUT: {
    meaning: 'An argument was well-typed but unusable (empty, out of range, contradictory).',
    retryable: false,
    hint: 'Correct the argument named in the message and send the operation again.',
  },
  SESSION_NOT_FOUND: {
    meaning: 'No session has that id (it never existed or was removed).',
    retryable: false,
    hint: 'List the live sessions with `sessions { id status }` and use one of their ids.',
  },
  SESSION_AMBIGUOUS: {
    meaning: 'The session id was omitted but more than one session exists.',
    retryable: false,
    hint: 'Name the session: `session(id: ...)`, `stop(id: ...)` or `detach(id: ...)`, and the `session:` argument of every action; `sessions { id status app { name } }` lists the candidates.',
  },
  SESSION_NOT_RUNNING: {
    meaning: 'The session has stopped, exited or crashed, so it cannot act; its buffers stay readable.',
    retryable: false,
    hint: 'Read its post-mortem fields (status, exit, console) or launch a new session.',
  },
  WINDOW_NOT_FOUND: {
    meaning: 'No open window of the session matches the given id, title, url or index.',
    retryable: true,
    hint: 'List the windows with `session { windows { id title url } }`; a window may still be opening.',
  },
  DESKTOP_UNAVAILABLE: {
    meaning:
      'No accessible desktop could be reached or started for a desktop session: Xvfb, the D-Bus session bus or the accessibility bus is missing or did not answer, or the desktop is Wayland without an accessible input path.',
    retryable: false,
    hint: 'Install the desktop packages (apt-get install -y xvfb dbus at-spi2-core), or set DISPLAY and DBUS_SESSION_BUS_ADDRESS to a running X desktop with accessibility on.',
  },
  DESKTOP_APP_NOT_FOUND: {
    meaning:
      "No application registered with the desktop's accessibility registry has the pid or accessible name asked for (attachDesktop); `details.registered` lists those that are.",
    retryable: true,
    hint: 'List the accessible apps with `desktopApps { name pid windowTitles }`. An app is listed only once its accessibility bridge is loaded: GTK loads it unless NO_AT_BRIDGE=1, Qt needs QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1; a just-started app may still be registering.',
  },
  DESKTOP_TIMEOUT: {
    meaning:
      "A desktop app got an accessibility (AT-SPI) call and gave no answer within its timeout; the method is named. The app's main loop is busy or blocked — often a modal dialog it runs in a nested loop from inside an accessibility call.",
    retryable: true,
    hint: 'Retry once the app is idle. If a dialog is open, read `session { windows { id title } }` and answer it (its Cancel or OK); invokeMenuItem opens dialogs without blocking the app, an action called directly on a menu item may not. If the app never answers again, `stop` the session.',
  },
  DESKTOP_ACTION_UNSUPPORTED: {
    meaning:
      "The desktop app's toolkit does not implement the accessibility (AT-SPI) call this action needs; the message names the toolkit, its version and the call (GTK 4.8 answers Component.GrabFocus with an error and no reason).",
    retryable: false,
    hint: 'Reach the same end another way: click the element (a click focuses a text field), or press Tab to move the focus; docs/transports.md lists what each toolkit implements.',
  },
  DESKTOP_INPUT_NOT_CONFIRMED: {
    meaning:
      "Keys were sent to a desktop app (`type`, `press`) but it showed no sign of them within the action's time: a text field's text and caret stayed as they were, and for other keys the app sent no accessibility event at all (no focus, state, text or window change).",
    retryable: true,
    hint: 'Read the element before retrying: the keys may have gone to another window or had no effect there. Click the field to focus it, or `fill` it (which sets the text without keys); a key that does nothing in this app (a letter on a button) cannot be confirmed and is answered so.',
  },
  LAUNCH_FAILED: {
    meaning:
      'The app could not be started: no executable resolved, the entry script is missing, or the process died during start-up.',
    retryable: false,
    hint: 'Check `main` / `executablePath`; set ELECTRON_PATH or start the server with --electron to name an Electron binary.',
  },
  LAUNCH_TIMEOUT: {
    meaning:
      'The app started but did not become drivable (no CDP endpoint or first window) within the timeout.',
    retryable: true,
    hint: 'Raise `timeoutMs` (clamped to 120000) or check the app opens a window at start-up.',
  },
  EXITED_EARLY: {
    meaning:
      'The launched command exited before its CDP endpoint answered; the tail of its stderr is in `details.stderrTail`.',
    retryable: false,
    hint: 'Read `details.stderrTail`; check the command runs by hand and passes Chromium switches such as --remote-debugging-port on to the browser.',
  },
  ATTACH_FAILED: {
    meaning:
      'Nothing that speaks the Chrome DevTools Protocol answered at that port or URL, or the connection was refused.',
    retryable: true,
    hint: 'Check the app was started with --remote-debugging-port=<port>; `discover(ports: [...])` lists what answers on loopback ports.',
  },
  HOST_NOT_ALLOWED: {
    meaning:
      'Attaching to a non-loopback host is refused unless the server was started with --allow-remote-cdp.',
    retryable: false,
    hint: 'Attach on 127.0.0.1 (forward the port over SSH if the app is elsewhere), or restart the server with --allow-remote-cdp.',
  },
  CDP_TIMEOUT: {
    meaning: 'A DevTools Protocol or inspector call got no answer within its timeout; the method is named.',
    retryable: true,
    hint: 'The app may be busy or paused in a debugger; retry, or check it still answers (`discover`).',
  },
  PROTOCOL_ERROR: {
    meaning:
      "A DevTools Protocol or inspector call reached the app and failed there: the endpoint answered the method with an error, or the code Stagegraph runs in the main process threw. The message names the method, then gives the app's own words.",
    retryable: false,
    hint: 'Check the session and its window are still there (`session { status windows { id title url } }`); a call that failed while its window navigated or closed works when sent again, otherwise the app cannot serve it and the message says why.',
  },
  INJECT_FAILED: {
    meaning:
      'The process could not be injected into: it does not exist, is not a Node or Electron main process, its inspector did not open, or the inspector that answered belongs to another process.',
    retryable: false,
    hint: "Pass the pid of the app's main process (the Electron or node process, not a renderer); the reason is in the message.",
  },
  INJECT_TIMEOUT: {
    meaning:
      'A step of inject (the inspector opening after SIGUSR1, its websocket, the agent installing or connecting back, the window relay, window discovery) did not finish within the inject timeout; the step is named. Whatever inject had opened is let go.',
    retryable: true,
    hint: 'Check the process is running and not stopped or paused in a debugger (its inspector must answer), then retry, with a larger `timeoutMs` if the app is busy.',
  },
  NOT_OWNED: {
    meaning:
      "The session is attached to an app Stagegraph did not start, so stop and forceKill would end someone else's process.",
    retryable: false,
    hint: 'Use `detach` to let go of the app and leave it running.',
  },
  REF_NOT_FOUND: {
    meaning: 'No node of the current snapshot has that ref.',
    retryable: false,
    hint: 'Take a snapshot (or use `find`) and pick a ref from it; `similarRefs` lists near candidates.',
  },
  REF_STALE: {
    meaning: 'The ref belonged to a document that has since reloaded or navigated, or its element is gone.',
    retryable: false,
    hint: 'Take a fresh snapshot of the window and use the refs it returns.',
  },
  SELECTOR_NO_MATCH: {
    meaning: 'The selector, test id, role/name or text matched no element within the timeout.',
    retryable: true,
    hint: 'Check the target against a fresh snapshot; `similarRefs` lists near candidates by role and name.',
  },
  SELECTOR_SYNTAX: {
    meaning:
      'A `query` target is not a well-formed query selector; `details.column` (1-based) points at the mistake, `details.expected` says what belongs there and `details.found` what was there instead.',
    retryable: false,
    hint: 'Fix the query at the column named, e.g. `role=button name="Save"`, `name~="sav"`, `A >> B`, `role=textbox right-of name="Name"`, `A ?? B`; docs/agents.md, "Query selectors", has the grammar.',
  },
  AMBIGUOUS_TARGET: {
    meaning: 'The target matched more than one element and no `nth` was given.',
    retryable: false,
    hint: 'Add `nth`, narrow it with `within`, or use a ref; the candidates are listed in `details`.',
  },
  ELEMENT_DISABLED: {
    meaning: 'The target stayed disabled for the whole actionability timeout.',
    retryable: true,
    hint: 'Do what enables it first (fill required fields, wait for loading), or raise `timeoutMs`.',
  },
  ELEMENT_OBSCURED: {
    meaning: 'Another element covers the target and would receive the pointer event.',
    retryable: true,
    hint: 'Close or dismiss the covering element named in the message, or scroll the target clear of it.',
  },
  ELEMENT_NOT_VISIBLE: {
    meaning: 'The target stayed hidden, detached or zero-sized for the whole actionability timeout.',
    retryable: true,
    hint: 'Reveal it first (open its menu, tab or section) or check it is the element you mean.',
  },
  ELEMENT_NOT_EDITABLE: {
    meaning:
      'The action needs an input, textarea, select or contenteditable element and the target is not one.',
    retryable: false,
    hint: 'Target the form control itself (its label resolves to it), not a wrapper.',
  },
  ACTION_TIMEOUT: {
    meaning:
      'The action was not performed within its timeout for a reason other than the ones above: nothing was dispatched to the target (its input events were never sent), so sending it again cannot do it twice.',
    retryable: true,
    hint: 'Raise `timeoutMs` (clamped to 30000) or check the page is responsive.',
  },
  ACTION_UNCONFIRMED: {
    meaning:
      "The action was performed — its input events reached the page — but the page did not confirm it within the timeout (a busy handler, a navigation that did not finish). It may well have taken effect: `details.phase` is the step it was in, `details.target` the target's role, name, value and states as read afterwards, `details.pendingRequests` the requests it had started that were still running.",
    // A retry could click twice, submit twice, or undo what the first one did.
    retryable: false,
    hint: 'Do not resend it blindly: compare `details.target` (or a fresh snapshot) with what the action should have done, and go on from there.',
  },
  RENDERER_CRASHED: {
    meaning:
      "The window's renderer process crashed or was killed, so its page cannot be read or acted on; the session's other windows and its main process may still work.",
    retryable: false,
    hint: 'Read `session { status windows { id title } }`: act in another window, or stop the session and launch the app again.',
  },
  RENDERER_NOT_RESPONDING: {
    meaning:
      "The window's renderer did not finish the operation by its deadline (its `timeoutMs` or default; 30 s for a snapshot or another read without one) and left a trivial question unanswered: it is busy, paused in a debugger, or stopped. `details.silentMs` is how long it has been silent. Nothing was confirmed: a key press already sent to it may still be handled when it resumes.",
    retryable: true,
    hint: 'The app is busy, paused in a debugger or stopped: retry later (once it answers, the session works again), or stop the session.',
  },
  MAIN_NOT_RESPONDING: {
    meaning:
      "The app's main process left a call (a menu, context menu, tray or dialog-policy call) unanswered past its deadline (10 s, less when it was already silent): it is busy, paused in a debugger, or stopped. The call does not run when the process resumes; its renderers may still answer.",
    retryable: true,
    hint: 'The app is busy, paused in a debugger or stopped: retry later (once it answers, the session works again), or stop the session.',
  },
  EXPECTATION_FAILED: {
    meaning: 'The expected condition did not hold within the timeout; the last actual value is in `details`.',
    retryable: true,
    hint: 'Compare `details.actual` with what you expected; raise `timeoutMs` if the app is just slow.',
  },
  URL_INVALID: {
    meaning: 'The URL to navigate to is not an absolute URL (a scheme, then the rest).',
    retryable: false,
    hint: "Give an absolute URL such as `https://example.com/page`; the window's own URL is in `window { url }`.",
  },
  URL_SCHEME_REFUSED: {
    meaning:
      'navigate goes to http:, https:, file: and about:blank only; `javascript:` runs code in the page (eval by another name) and other schemes hand the URL to the browser or the OS.',
    retryable: false,
    hint: 'Navigate to an http(s) or file URL; to run code in the page, start the server with --allow-eval=renderer and use evalRenderer, which the policy weighs as code.',
  },
  NO_HISTORY_ENTRY: {
    meaning: 'navigate BACK or FORWARD found no history entry in that direction; nothing happened.',
    retryable: false,
    hint: 'Navigate to a URL instead; `details.index` and `details.length` say where the window is in its history.',
  },
  NAVIGATION_FAILED: {
    meaning:
      'The navigation did not commit a new document: the browser reported a network error (net::ERR_…, in `details.error`) or the load was aborted.',
    retryable: true,
    hint: 'Check the URL and that its server answers; the window still shows the document it had, so read it before acting.',
  },
  NAVIGATION_TIMEOUT: {
    meaning: 'No new document committed within the timeout; the window still shows the one it had.',
    retryable: true,
    hint: 'Raise `timeoutMs` (clamped to 60000) if the server is just slow; a committed page that loads slowly answers with `reached: false` instead.',
  },
  PATH_NOT_ALLOWED: {
    meaning: 'A file path lies outside the roots this server allows for uploads.',
    retryable: false,
    hint: 'Use a file under one of the allowed roots listed in `details.allowedRoots`.',
  },
  ARTIFACT_SYMLINK: {
    meaning:
      'A path under the artifacts folder goes through a symbolic link (a session folder that is a link, or a link inside one): the artifact route serves only what the gateway wrote there, never what a link points to, and the gateway writes nothing through one (a launch into a session folder that is a link is refused, and its run log is not kept).',
    retryable: false,
    hint: 'Ask for a file `Session.artifacts` lists. The gateway makes no links there: something else running as this user did; remove the link and find out what made it.',
  },
  CAPABILITY_UNSUPPORTED: {
    meaning: "The session's transport cannot do this; the field was refused before any transport call.",
    retryable: false,
    hint: 'Use a session on a transport whose capability matrix has this capability (see `transports`).',
  },
  EVAL_DISABLED: {
    meaning: 'Arbitrary JavaScript evaluation is disabled on this server.',
    retryable: false,
    hint: 'Restart the server with --allow-eval (or --allow-eval=main / =renderer) if you accept the risk.',
  },
  EVAL_NOT_SERIALIZABLE: {
    meaning:
      'The evaluated code returned something that is not plain JSON (a function, class instance, cycle, NaN, ...).',
    retryable: false,
    hint: 'Return plain data: map the value to objects, arrays, strings, numbers, booleans and null; the message names the part that is not.',
  },
  EVAL_RESULT_TOO_LARGE: {
    meaning:
      'The evaluated code returned more than 1,000,000 characters of JSON; it was refused where it ran, before crossing any connection.',
    retryable: false,
    hint: 'Return less: a slice, a count or a summary of what you need, or read it in parts.',
  },
  EVAL_TIMEOUT: {
    meaning:
      'The evaluated code did not settle within timeoutMs. Nobody waits for it any more, but it may still be running: a synchronous loop keeps the process it runs in busy.',
    retryable: false,
    hint: 'Make the code settle sooner, or raise timeoutMs (at most 60000); check that the app still answers before going on.',
  },
  EVAL_FAILED: {
    meaning: 'The evaluated code did not compile or threw; the message is its error message, never a stack.',
    retryable: false,
    hint: 'Fix the code; it must be a function expression, such as `({ app }) => app.getName()` (main) or `() => document.title` (renderer).',
  },
  NOT_INSTRUMENTED: {
    meaning:
      'This needs the native hooks in place before the app started (Electron keeps no list of trays), and the session was launched without them.',
    retryable: false,
    hint: 'Stop the session and launch it again with `instrumentNative: true` (and `main`).',
  },
  INSTRUMENTATION_NEEDS_MAIN: {
    meaning:
      "instrumentNative was asked for a launch that names only an executable: the hooks are preloaded before the app's main script.",
    retryable: false,
    hint: 'Pass `main` (the app entry script or folder) with instrumentNative, or launch without instrumentNative.',
  },
  UNAUTHENTICATED: {
    meaning: 'The request carried no valid token and this server requires one.',
    retryable: false,
    hint: 'Send `Authorization: Bearer <token>` over HTTP, or `{ authorization: "Bearer <token>" }` in connection_init over WebSocket.',
  },
  FORBIDDEN_ORIGIN: {
    meaning:
      'The request came from a web page of another origin (its Origin or Sec-Fetch-Site said so); browsers may only call the gateway from its own pages.',
    retryable: false,
    hint: 'Call the gateway from a non-browser client (which sends no Origin), from its own GraphiQL, or start it with `--allow-origin <origin>` for a page you trust.',
  },
  FORBIDDEN_HOST: {
    meaning:
      'The Host header named neither a loopback name nor a configured host (a DNS-rebinding page, or a proxy in front of the gateway).',
    retryable: false,
    hint: 'Reach the gateway as 127.0.0.1 or localhost, or start it with `--allowed-host <name>` for the name you use.',
  },
  UNSUPPORTED_CONTENT_TYPE: {
    meaning:
      'A request body was not JSON; form and text bodies are refused because any web page can send them without asking.',
    retryable: false,
    hint: 'POST with `Content-Type: application/json` and a body `{"query": ..., "variables": ...}`.',
  },
  ...REQUEST_ERROR_CODES,
  SUBSCRIPTION_LIMIT: {
    meaning: 'The server holds the maximum number of subscriptions it allows.',
    retryable: true,
    hint: 'Close a subscription you no longer read, then subscribe again.',
  },
  CLIENT_LIMIT: {
    meaning:
      'This client holds its whole share of a resource the server bounds per client as well as in all (`details.resource`: subscriptions, pending approvals or sessions); other clients keep theirs. A client is its token, and over graphql-ws also its connection.',
    retryable: true,
    hint: 'The limit is your own share, not the server being full: end what you hold and no longer use (close a subscription, stop a session, wait for an approval to be answered), then try again.',
  },
  CAPTURE_LIMIT: {
    meaning: 'The session has the most network captures armed at once that it keeps (`details.limit`).',
    retryable: false,
    hint: "Stop a capture you no longer need (`stopNetworkCapture`; `session { networkCaptures { id } }` lists them), or widen one capture's filter instead of arming another.",
  },
  STUB_LIMIT: {
    meaning:
      'The session holds the most network stubs it keeps (`details.limit`), all still active; spent stubs make room for new ones by themselves.',
    retryable: false,
    hint: 'Remove stubs you no longer need (`unstubNetwork`), or give new ones `times` so they retire once used; `session { networkStubs { id active hits } }` lists them.',
  },
  SESSION_LIMIT: {
    meaning: 'The server runs or starts the most sessions it allows at once.',
    retryable: true,
    hint: 'Stop a session you no longer use (`stop(id:)`), or wait for one to end, then try again.',
  },
  ...GOVERNANCE_ERROR_CODES,
  ...CLUSTER_ERROR_CODES,
  ...VISION_ERROR_CODES,
  QUERY_TOO_COMPLEX: {
    meaning: 'The operation is nested deeper or selects more fields than the server allows.',
    retryable: false,
    hint: 'Select fewer fields or split the operation in two; the limits are named in the message.',
  },
  STEP_SKIPPED: {
    meaning:
      'An earlier step of the same mutation operation failed, so this step did not run: nothing was done, asked or audited for it. `details.failedStep` names the step that failed (its alias, else its field) and `details.failedCode` its code.',
    // Resending the document would run its earlier steps again; whether the failure can pass is the failed
    // step's own `retryable` to say.
    retryable: false,
    hint: "Read the failed step's own error (at its path): deal with it, then send this step and the ones after it again — without the steps before the failed one, which already ran.",
  },
  NETWORK_CAPTURE_NOT_FOUND: {
    meaning: 'No armed network capture of the session has that id (never armed, or already stopped).',
    retryable: false,
    hint: 'List the armed captures with `session { networkCaptures { id } }`; the network buffer stays readable.',
  },
  STUB_NOT_FOUND: {
    meaning: 'No network stub of the session has that id (never created, or already removed).',
    retryable: false,
    hint: 'List the stubs with `session { networkStubs { id pattern hits active } }`.',
  },
  STORAGE_ORIGIN_NOT_OPEN: {
    meaning:
      'Web storage is read in a window of the origin, and no open window of the session has that origin.',
    retryable: true,
    hint: 'Use one of the origins in `details.openOrigins`, or open a window on the origin first.',
  },
  CLOCK_NOT_INSTALLED: {
    meaning: 'The fake clock is not installed in this session, so it cannot be advanced, paused or resumed.',
    retryable: false,
    hint: 'Call `installClock` first (optionally with a start time), then control it.',
  },
  PLUGIN_FAILED: {
    meaning:
      'A plugin named with --plugin (or STAGEGRAPH_PLUGINS) could not be loaded or registered: the module is missing or throws, exports no definePlugin(...) default, or adds a field outside its namespace or without the gates every field passes (governance on a mutation).',
    retryable: false,
    hint: 'Fix or remove the plugin the message names and start the server again; docs/plugins.md says what a plugin must export and declare.',
  },
  INTERNAL: {
    meaning: 'An unexpected error; details are in the server log, never in the response.',
    retryable: true,
    hint: 'Retry once; if it persists, report it with the time and the operation.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}

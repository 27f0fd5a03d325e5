import type { BridgeTool } from './tool.js';
import { failure, optionalString, TARGET, TARGET_DEFS, WHERE } from './tool.js';

const SCREENSHOT = `query Screenshot($session: ID, $window: ID, $target: TargetInput, $format: ImageFormat, $fullPage: Boolean) {
  session(id: $session) { window(id: $window) { screenshot(target: $target, format: $format, fullPage: $fullPage) { base64 format width height } } }
}`;

/** A window or one element as MCP image content. */
export const screenshotTool: BridgeTool = {
  name: 'screenshot',
  description:
    'Image of a window, or of one element (target). Prefer read: an outline costs far fewer tokens.',
  inputSchema: {
    type: 'object',
    properties: {
      ...WHERE,
      target: TARGET,
      format: { enum: ['png', 'jpeg'], description: 'Default png.' },
      fullPage: { type: 'boolean', description: 'The whole scrollable page, not only the viewport.' },
    },
    additionalProperties: false,
    $defs: TARGET_DEFS,
  },
  async run(args, { link }) {
    const format = optionalString(args.format);
    const answer = await link.execute(SCREENSHOT, {
      session: optionalString(args.session),
      window: optionalString(args.window),
      target: typeof args.target === 'object' ? args.target : undefined,
      format: format?.toUpperCase(),
      fullPage: args.fullPage === true ? true : undefined,
    });
    const shot = answer.data?.session?.window?.screenshot;
    if (!shot) return failure(answer.errors ?? [{ message: 'No session is open: call open first.' }]);
    return {
      content: [
        { type: 'image', data: shot.base64, mimeType: shot.format === 'JPEG' ? 'image/jpeg' : 'image/png' },
        { type: 'text', text: `${shot.width}x${shot.height}` },
      ],
    };
  },
};

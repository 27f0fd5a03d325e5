import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import {
  css,
  editorWorkerService,
  favicon,
  graphqlWorker,
  js,
  jsonWorker,
} from '@graphql-yoga/render-graphiql/graphiql';

export type Encoding = 'br' | 'gzip';

const COMPRESS: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => promisify(brotliCompress)(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/** The files of yoga's offline GraphiQL bundle, by the name the page asks for them. */
export const GRAPHIQL_ASSETS = {
  'graphiql.js': { type: 'text/javascript; charset=utf-8', text: js },
  'graphiql.css': { type: 'text/css; charset=utf-8', text: css },
  'editor.worker.js': { type: 'text/javascript; charset=utf-8', text: editorWorkerService },
  'json.worker.js': { type: 'text/javascript; charset=utf-8', text: jsonWorker },
  'graphql.worker.js': { type: 'text/javascript; charset=utf-8', text: graphqlWorker },
  'favicon.ico': { type: 'image/x-icon', text: favicon },
} as const;

export type AssetName = keyof typeof GRAPHIQL_ASSETS;

/** A whole year: an asset's URL carries its content's hash, so a new bundle is a new URL. */
export const ASSET_MAX_AGE_SECONDS = 31_536_000;

export interface Served {
  readonly type: string;
  readonly body: Buffer;
  readonly encoding: Encoding | undefined;
}

/**
 * The bundle's files, each read once, compressed on its first request for each encoding (off the event
 * loop), and named under a hash of their contents (computed on the first request, not at start-up).
 */
export class GraphiqlAssets {
  #version: string | undefined;
  readonly #bodies = new Map<AssetName, Buffer>();
  readonly #encoded = new Map<string, Promise<Buffer>>();

  /** A short hash of every asset: the path segment that makes their URLs immutable. */
  get version(): string {
    if (this.#version === undefined) {
      const hash = createHash('sha256');
      for (const name of Object.keys(GRAPHIQL_ASSETS) as AssetName[]) hash.update(this.#body(name));
      this.#version = hash.digest('hex').slice(0, 16);
    }
    return this.#version;
  }

  isAsset(name: string): name is AssetName {
    return Object.hasOwn(GRAPHIQL_ASSETS, name);
  }

  /** The asset compressed as asked; uncompressed when compression failed (out of memory). */
  async serve(name: AssetName, encoding: Encoding | undefined): Promise<Served> {
    const { type } = GRAPHIQL_ASSETS[name];
    const plain = this.#body(name);
    if (!encoding) return { type, body: plain, encoding };
    const key = `${name} ${encoding}`;
    let body = this.#encoded.get(key);
    if (!body) {
      body = COMPRESS[encoding](plain);
      this.#encoded.set(key, body);
    }
    return body.then(
      (compressed) => ({ type, body: compressed, encoding }),
      () => {
        this.#encoded.delete(key);
        return { type, body: plain, encoding: undefined };
      },
    );
  }

  #body(name: AssetName): Buffer {
    let body = this.#bodies.get(name);
    if (!body) {
      const { text } = GRAPHIQL_ASSETS[name];
      // The favicon ships as a data: URL; served as a file, it is the bytes it encodes.
      const data = /^data:[^;,]*;base64,/.exec(text);
      body = data ? Buffer.from(text.slice(data[0].length), 'base64') : Buffer.from(text);
      this.#bodies.set(name, body);
    }
    return body;
  }
}

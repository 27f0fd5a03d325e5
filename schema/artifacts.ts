import { artifactAccess, mayOpenArtifact } from '../domain/sessions/artifact-access.js';
import type { ArtifactFile } from '../domain/sessions/artifact-folder.js';
import { builder } from './builder.js';
import { readsClear } from './reveal.js';
import { SessionRef } from './session.js';

/** Where the HTTP server serves a session's artifacts; one segment per path part, each URI-encoded. */
export const ARTIFACTS_HTTP_PREFIX = '/artifacts';

const ArtifactFileRef = builder
  .objectRef<ArtifactFile & { readonly sessionId: string }>('ArtifactFile')
  .implement({
    description:
      "A file in the session's artifact folder: the run log, a launched command's output, saved screenshots.",
    fields: (t) => ({
      path: t.exposeString('path', {
        description: "Relative to the session's folder: run.jsonl, screenshots/w1-1.png.",
      }),
      size: t.exposeInt('size', { description: 'Bytes.' }),
      modified: t.field({
        type: 'DateTime',
        description: 'When the file was last written.',
        resolve: (file) => file.modified,
      }),
      url: t.string({
        description:
          "Where this server serves it read-only (GET, with the same token as GraphQL), relative to the server. Screenshots and evidence are served to every role and run.jsonl scrubbed to approvers and observers; every other file (stdout.log, stderr.log, trace zips) holds what the app sent in clear and is an agent's only: other roles, and everyone under the policy's `reveal: NONE`, get ARTIFACT_FORBIDDEN.",
        resolve: (file) =>
          `${ARTIFACTS_HTTP_PREFIX}/${[file.sessionId, ...file.path.split('/')].map(encodeURIComponent).join('/')}`,
      }),
    }),
  });

const ArtifactListingRef = builder
  .objectRef<{ files: (ArtifactFile & { sessionId: string })[]; omitted: number }>('ArtifactListing')
  .implement({
    description: "The files of a session's artifact folder, in path order.",
    fields: (t) => ({
      files: t.field({
        type: [ArtifactFileRef],
        description: 'The files, at most 1,000; `omitted` counts the rest.',
        resolve: (listing) => listing.files,
      }),
      omitted: t.exposeInt('omitted', { description: 'Files left out past the listing bound (1000).' }),
    }),
  });

builder.objectFields(SessionRef, (t) => ({
  artifacts: t.field({
    type: ArtifactListingRef,
    description:
      "The session's artifact folder: run.jsonl (output, console, dialogs and Stagegraph's own actions, one JSON object per line), a launched command's stdout.log and stderr.log, saved screenshots. Readable after the session ends. Lists only what this reader may open: an approver or observer (and everyone under the policy's `reveal: NONE`) is not listed the files kept in clear (`ArtifactFile.url` says which).",
    resolve: async (session, _args, context) => {
      const { files, omitted } = await session.artifacts.list();
      const clear = readsClear(context);
      const openable = files.filter((file) => mayOpenArtifact(artifactAccess(file.path.split('/')), clear));
      return { files: openable.map((file) => ({ ...file, sessionId: session.id })), omitted };
    },
  }),
}));

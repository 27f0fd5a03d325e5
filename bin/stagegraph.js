#!/usr/bin/env node
// The sources are TypeScript run in place through tsx: no build step between a change and a run.
import { register } from 'tsx/esm/api';

register();
await import('../server/main.ts');

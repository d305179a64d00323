#!/usr/bin/env node
// The `drugref` command. The sources are TypeScript, loaded through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');

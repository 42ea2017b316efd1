/**
 * Entry of the inline early script: vite.config.ts bundles this file as an IIFE into index.html,
 * so the guard listens before the first asset (the entry chunk itself included) is requested.
 */
import { installReleaseGuard } from './installGuard';

installReleaseGuard(window);

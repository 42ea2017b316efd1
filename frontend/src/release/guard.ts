/**
 * The app's handle on the release guard. Imported first by main.tsx: when the inline early script
 * is missing (dev server without the plugin, a stripped index.html) the guard is installed here.
 */
import { installReleaseGuard } from './installGuard';

export const releaseGuard = installReleaseGuard(window);

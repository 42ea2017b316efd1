// vite imports this module only on Windows, inside a try/catch, and falls back to PowerShell when
// it cannot be loaded: failing to load is exactly the behaviour of the missing package.
throw new Error('napi-windows-process-start-time is not available (stub); vite falls back to PowerShell');

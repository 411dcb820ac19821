import { createInventoryApp } from './app.js';

// Settings of this example come from the environment; a real app would use its own configuration.
const port = Number(process.env['PORT'] ?? 8080);
const app = await createInventoryApp({
  keysFile: process.env['KEYS_FILE'] ?? 'keys.json',
  reportsDir: process.env['REPORTS_DIR'] ?? 'reports',
  logger: console,
});
app.listen(port, () => console.log(`Inventory app on http://localhost:${port}; reports at /collector/api/lynis/upload/`));

// E2E_PORT_BASE lets two suites run side by side on one machine.
const base = Number(process.env.E2E_PORT_BASE ?? 4400);

export const E2E = {
  appPort: base,
  /** A second console without its own API: a client of the first one's through API_URL. */
  remoteConsolePort: base + 1,
  oidcPort: base + 10,
  controlPort: base + 11,
};
export const BASE_URL = `http://127.0.0.1:${E2E.appPort}`;

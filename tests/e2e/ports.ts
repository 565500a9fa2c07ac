export const E2E = {
  appPort: 4400,
  /** A second console without its own API: a client of the first one's through API_URL. */
  remoteConsolePort: 4401,
  oidcPort: 4410,
  controlPort: 4411,
};
export const BASE_URL = `http://127.0.0.1:${E2E.appPort}`;

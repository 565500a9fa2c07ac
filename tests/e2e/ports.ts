export const E2E = {
  appPort: 4400,
  oidcPort: 4410,
  controlPort: 4411,
};
export const BASE_URL = `http://127.0.0.1:${E2E.appPort}`;

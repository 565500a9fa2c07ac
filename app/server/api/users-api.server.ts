import {
  AppUsersList,
  AppUsersUpsertResult,
  UserInfo,
  UsersList,
  UsersUpsertResult,
  type AppUsersUpsertBody,
  type UsersUpsertBody,
} from "@contract";
import type { ApiClient } from "./client.server";

/** Who is signed in, with their permissions on every client. */
export const getUserInfo = (api: ApiClient) => api.get(UserInfo, "/v1/users/get_info");

export const usersApi = {
  list: (api: ApiClient) => api.get(UsersList, "/v1/users"),
  upsert: (api: ApiClient, body: UsersUpsertBody) => api.post(UsersUpsertResult, "/v1/users/upsert", body),
  listForApp: (api: ApiClient, appId: number) => api.get(AppUsersList, `/v1/apps/${appId}/users`),
  upsertForApp: (api: ApiClient, appId: number, body: AppUsersUpsertBody) =>
    api.post(AppUsersUpsertResult, `/v1/apps/${appId}/users/upsert`, body),
};

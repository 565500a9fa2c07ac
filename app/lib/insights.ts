/** The user profile store's page sizes (the API also allows 1000, for exports). */
export const PROFILE_PAGE_SIZES = [10, 25, 50, 100] as const;

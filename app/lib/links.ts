/**
 * An address shown as a link: the web pages answers cite, nothing a browser would run
 * (`javascript:`). A module of its own: a screen that shows an answer's sources takes this without
 * the conversation screens' helpers.
 */
export const isHttpLink = (value: string) => /^https?:\/\/[^\s/]/i.test(value);

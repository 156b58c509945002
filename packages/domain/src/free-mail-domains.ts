/**
 * Domains of free and consumer mail providers: everyone at gmail.com is not
 * one company, so a reply from such an address never stops the campaign's
 * other enrollments at that domain (stop_on_reply_scope "domain"). Exact,
 * lower-case domains (no subdomain matching): the common providers worldwide
 * and their main country domains. One list, edited here.
 */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  // Google
  "gmail.com",
  "googlemail.com",
  // Microsoft
  "outlook.com",
  "outlook.de",
  "outlook.fr",
  "outlook.es",
  "outlook.it",
  "hotmail.com",
  "hotmail.co.uk",
  "hotmail.de",
  "hotmail.fr",
  "hotmail.es",
  "hotmail.it",
  "hotmail.nl",
  "live.com",
  "live.co.uk",
  "live.de",
  "live.fr",
  "live.nl",
  "msn.com",
  // Yahoo and AOL
  "yahoo.com",
  "yahoo.co.uk",
  "yahoo.de",
  "yahoo.fr",
  "yahoo.es",
  "yahoo.it",
  "yahoo.ca",
  "yahoo.com.au",
  "yahoo.com.br",
  "yahoo.co.in",
  "yahoo.co.jp",
  "ymail.com",
  "rocketmail.com",
  "aol.com",
  "aim.com",
  // Apple
  "icloud.com",
  "me.com",
  "mac.com",
  // privacy-focused and independent
  "proton.me",
  "protonmail.com",
  "protonmail.ch",
  "pm.me",
  "tutanota.com",
  "tuta.io",
  "fastmail.com",
  "fastmail.fm",
  "hey.com",
  "zoho.com",
  "zohomail.com",
  "mail.com",
  "email.com",
  "gmx.com",
  "gmx.net",
  "gmx.de",
  "gmx.at",
  "gmx.ch",
  "gmx.fr",
  // Europe
  "web.de",
  "t-online.de",
  "freenet.de",
  "orange.fr",
  "wanadoo.fr",
  "free.fr",
  "laposte.net",
  "sfr.fr",
  "libero.it",
  "virgilio.it",
  "seznam.cz",
  "wp.pl",
  "o2.pl",
  "onet.pl",
  "interia.pl",
  "btinternet.com",
  "sky.com",
  "yandex.ru",
  "yandex.com",
  "ya.ru",
  "mail.ru",
  "inbox.ru",
  "list.ru",
  "bk.ru",
  // Asia, Americas, Oceania
  "qq.com",
  "foxmail.com",
  "163.com",
  "126.com",
  "sina.com",
  "naver.com",
  "daum.net",
  "hanmail.net",
  "rediffmail.com",
  "uol.com.br",
  "bol.com.br",
  "comcast.net",
  "verizon.net",
  "att.net",
  "sbcglobal.net",
  "bellsouth.net",
  "bigpond.com",
]);

/** The lower-cased domain of an address (after its last "@"), or null when it has none. */
export function emailDomain(address: string): string | null {
  const at = address.lastIndexOf("@");
  const domain = at === -1 ? "" : address.slice(at + 1).trim().toLowerCase();
  return domain || null;
}

export function isFreeMailDomain(domain: string): boolean {
  return FREE_MAIL_DOMAINS.has(domain.toLowerCase());
}

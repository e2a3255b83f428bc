/**
 * The service's own words for rule values (attack types, modes, parsers, file
 * types, units), each list in one place for the kinds that use it.
 */

/** Attack types a virtual patch or a false-positive rule names. */
export const PATCH_ATTACK_TYPES = [
  'any', 'xss', 'sqli', 'rce', 'xxe', 'ptrav', 'crlf', 'redir', 'nosqli', 'ldapi', 'scanner',
  'mass_assignment', 'ssrf', 'ssi', 'mail_injection', 'ssti', 'invalid_xml',
] as const;

/** Attack types a regex rule reports: the patch list without `any` and `invalid_xml`, plus `vpatch`. */
export const REGEX_ATTACK_TYPES = [
  'xss', 'sqli', 'rce', 'xxe', 'ptrav', 'crlf', 'redir', 'nosqli', 'ldapi', 'scanner',
  'mass_assignment', 'ssrf', 'ssi', 'mail_injection', 'ssti', 'vpatch',
] as const;

/** Filtering modes of an application (`service_mode`). */
export const FILTERING_MODES = ['default', 'off', 'monitoring', 'safe_blocking', 'block'] as const;

export const UPLOAD_FILE_TYPES = ['docs', 'html', 'images', 'music', 'video'] as const;

export const PARSERS = [
  'base64', 'cookie', 'form_urlencoded', 'gzip', 'grpc', 'json_doc', 'multipart', 'percent', 'protobuf',
  'htmljs', 'viewstate', 'xml', 'jwt', 'gql',
] as const;

export const SIZE_UNITS = ['b', 'kb', 'mb', 'gb', 'tb'] as const;

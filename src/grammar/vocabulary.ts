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

/**
 * What people call the service's values, by the value: `sqlinjection` is
 * `sqli`. A suggestion looks here before it looks for a typo, which would
 * offer the nearest spelling instead (`sqlinjection` → `mail_injection`).
 */
export const VALUE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  sqli: ['sql', 'sqlinjection', 'sql_injection', 'sql-injection'],
  xss: ['cross_site_scripting', 'crosssitescripting', 'cross-site-scripting'],
  rce: ['remote_code_execution', 'code_execution', 'command_injection', 'os_command_injection'],
  ptrav: ['path_traversal', 'pathtraversal', 'directory_traversal', 'lfi'],
  crlf: ['crlf_injection', 'header_injection'],
  redir: ['open_redirect', 'redirect'],
  nosqli: ['nosql', 'nosql_injection', 'nosqlinjection'],
  ldapi: ['ldap', 'ldap_injection', 'ldapinjection'],
  ssti: ['template_injection', 'server_side_template_injection'],
  ssi: ['ssi_injection', 'server_side_includes'],
  xxe: ['xml_external_entity', 'xml_external_entities'],
  ssrf: ['server_side_request_forgery'],
  mail_injection: ['email_injection', 'smtp_injection', 'imap_injection'],
  block: ['blocking', 'deny'],
  monitoring: ['monitor', 'log', 'detect'],
};

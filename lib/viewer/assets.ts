/** The viewer's environment map, served from public/ (scripts/make-env-map.mjs): no CDN. */
export const ENV_MAP_URL = "/env/studio.hdr";

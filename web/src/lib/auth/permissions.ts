/** The permission catalogue, in the order screens show it (the server's auth.Catalogue). */
export const PERMISSIONS = [
  'manage user',
  'manage permission',
  'view menu permission',
  'view patient',
  'manage patient',
  'view appointment',
  'manage appointment',
  'record vitals',
  'write diagnosis',
  'write prescription',
  'manage catalogue',
  'view audit log',
  'manage settings',
] as const

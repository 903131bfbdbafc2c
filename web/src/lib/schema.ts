// The API's types, as the contract (api/openapi.yaml) declares them: generated into
// api-schema.d.ts by `npm run api-types`, which make lint keeps up to date. A feature's
// types.ts names what it uses: `export type Role = Schema<'Role'>`, or an operation's body.
import type { components, paths } from './api-schema'

/** A schema of the contract's components, by name. */
export type Schema<K extends keyof components['schemas']> = components['schemas'][K]

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never

/** The JSON an operation answers with status S (200 unless said). */
export type ResponseBody<P extends keyof paths, M extends keyof paths[P], S extends number = 200> = paths[P][M] extends { responses: infer R }
  ? S extends keyof R
    ? Json<R[S]>
    : never
  : never

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: infer R } ? Json<NonNullable<R>> : never

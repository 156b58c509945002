import type { Client, ClientPathsWithMethod, FetchOptions, FetchResponse } from "openapi-fetch";

export type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
type MediaType = `${string}/${string}`;

type RequiredKeysOf<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

/** The operation object of one path and method. */
type OperationOf<Paths, Path extends keyof Paths, Method extends HttpMethod> = Paths[Path] extends { [M in Method]: infer Operation extends Record<string | number, any> } ? Operation : never;

/** The options of a call (params, body, headers, signal, ...): optional when nothing in them is required. */
export type InitOf<Operation> = RequiredKeysOf<FetchOptions<Operation>> extends never ? FetchOptions<Operation> | undefined : FetchOptions<Operation>;

/** The options argument: may be left out when nothing in it is required. */
export type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** What a call resolves to: the 2xx answer's typed body and the Response (headers, status). Errors throw. */
export interface ApiResult<Data> {
  data: Data;
  response: Response;
}

/** The body of an operation's 2xx answer. */
type SuccessData<Operation extends Record<string | number, any>, Init> = Extract<FetchResponse<Operation, Init, MediaType>, { error?: never }>["data"];

type ResultOf<Operation extends Record<string | number, any>, Init> = ApiResult<SuccessData<Operation, Init>>;

/** The paths that have `Method`. */
export type PathsWith<Paths extends {}, Method extends HttpMethod> = ClientPathsWithMethod<Client<Paths>, Method>;

/** GET, POST, ...: openapi-fetch's typed call, resolving to the success answer only. */
export type ApiMethod<Paths extends {}, Method extends HttpMethod> = <Path extends PathsWith<Paths, Method>, Init extends InitOf<OperationOf<Paths, Path, Method>>>(
  path: Path,
  ...init: InitParam<Init>
) => Promise<ResultOf<OperationOf<Paths, Path, Method>, Init>>;

type ListData<Paths extends {}, Path extends keyof Paths> = NonNullable<SuccessData<OperationOf<Paths, Path, "get">, {}>>;

/** The paths whose GET answers a JSON array: the lists. */
export type ListPaths<Paths extends {}> = {
  [Path in PathsWith<Paths, "get">]: ListData<Paths, Path> extends readonly unknown[] ? Path : never;
}[PathsWith<Paths, "get">];

/** The element type of a list's page. */
export type ListItem<Paths extends {}, Path extends keyof Paths> = ListData<Paths, Path> extends readonly (infer Item)[] ? Item : never;

/** The options of a list's first page (as for GET). */
export type ListInit<Paths extends {}, Path extends keyof Paths> = InitParam<InitOf<OperationOf<Paths, Path, "get">>>;

/**
 * Any path and method, with untyped parameters and body and an `any` answer:
 * the escape hatch for an operation the generated types do not describe yet.
 */
export interface LooseOperation {
  parameters: { query?: Record<string, unknown>; header?: Record<string, unknown>; path?: Record<string, unknown>; cookie?: never };
  requestBody?: { content: { "application/json": unknown } };
  responses: { 200: { headers: Record<string, unknown>; content: { "application/json": any } } };
}
export type LoosePaths = Record<string, Record<HttpMethod, LooseOperation>>;

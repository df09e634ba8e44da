/** The shape of ajv's precompiled validators (see scripts/build.mjs). */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

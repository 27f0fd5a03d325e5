/** What the registry says of each code; its own file so the tables split out of registry.ts can name it. */
export interface ErrorCodeInfo {
  readonly meaning: string;
  readonly retryable: boolean;
  readonly hint: string;
}

/** Types of scripts/generate-validator.mjs, for the test that checks the generated file is current. */
export declare const SCHEMA_FILE: string;
export declare const VALIDATOR_FILE: string;
export declare function validatorSource(schema: unknown): string;

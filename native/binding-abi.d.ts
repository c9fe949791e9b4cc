export declare const BINDING_ABI: number;
export declare function bindingMismatch(addon: unknown): string | undefined;

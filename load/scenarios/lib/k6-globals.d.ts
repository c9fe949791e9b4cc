/** k6's JavaScript runtime has a console (its output goes to the log, or --console-output). */
declare const console: {
  log(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
};

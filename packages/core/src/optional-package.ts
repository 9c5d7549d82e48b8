import { MissingPackageError } from './errors.js';

/**
 * Loads an optional peer dependency. When the package itself is missing (not a failure inside it), throws a
 * `MissingPackageError` with `message`, which says what to install or set instead.
 */
export async function importOptional<T>(name: string, load: () => Promise<T>, message: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message: reason } = error as NodeJS.ErrnoException;
    const missing =
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      String(reason).includes(`'${name}'`);
    if (!missing) throw error;
    throw new MissingPackageError(message, name, { cause: error });
  }
}

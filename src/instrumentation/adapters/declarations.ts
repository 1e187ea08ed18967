import { declarationOf, type FrameworkDeclaration } from './adapter';
import { ADAPTERS } from '.';

/**
 * Every adapter's declaration, for the register's entry points, which must know each framework's
 * modules before the app's first need and load no adapter before it: in their builds this module
 * is replaced by its value, computed when they are built (tsup-framework-declarations.ts).
 */
export const FRAMEWORK_DECLARATIONS: readonly FrameworkDeclaration[] = ADAPTERS.map(declarationOf);

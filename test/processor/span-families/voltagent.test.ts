import { VOLTAGENT } from '../../../src/tool-span/families/voltagent';
import { describeSpanFamily } from './conformance';

describeSpanFamily(VOLTAGENT, { name: 'tool.execution:lookup', attributes: {} });

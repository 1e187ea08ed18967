import { OPENINFERENCE } from '../../../src/tool-span/families/openinference';
import { describeSpanFamily } from './conformance';

describeSpanFamily(OPENINFERENCE, { name: 'lookup', attributes: { 'openinference.span.kind': 'TOOL' } });

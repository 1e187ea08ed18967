import { GENKIT } from '../../../src/tool-span/families/genkit';
import { describeSpanFamily } from './conformance';

describeSpanFamily(GENKIT, {
  name: 'lookup',
  attributes: { 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool', 'genkit:name': 'lookup' },
});

import { AI_SDK } from '../../../src/tool-span/families/ai-sdk';
import { describeSpanFamily } from './conformance';

describeSpanFamily(AI_SDK, { name: 'ai.toolCall', attributes: { 'ai.toolCall.name': 'lookup' } });

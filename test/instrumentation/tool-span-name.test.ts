import { expect } from 'chai';
import { _resetToolSpanNames, MAX_TOOL_SPAN_NAMES, toolSpanName } from '../../src/tool-span/span-name';

describe('tool span names: one cap for every operation', () => {
  afterEach(() => _resetToolSpanNames());

  it('names MCP spans tools/call {tool} until the cap, then tools/call alone; admitted names keep theirs', () => {
    expect(toolSpanName('get_weather', 'tools/call')).to.equal('tools/call get_weather');
    for (let i = 1; i < MAX_TOOL_SPAN_NAMES; i++) toolSpanName(`invented_${i}`);
    expect(toolSpanName('another_invented', 'tools/call')).to.equal('tools/call');
    expect(toolSpanName('another_invented')).to.equal('execute_tool');
    expect(toolSpanName('get_weather', 'tools/call')).to.equal('tools/call get_weather');
    expect(toolSpanName('get_weather')).to.equal('execute_tool get_weather');
  });
});

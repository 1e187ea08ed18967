package otel.toolerrors.agent;

import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolCallingChatOptions;

/**
 * A model provider without a network: asked "call TOOL ARGUMENTS", it calls that tool, then answers
 * in text once the tool's result is in. Spring AI's ToolCallingAdvisor runs the call.
 */
final class ScriptedChatModel implements ChatModel {

	@Override
	public ChatResponse call(Prompt prompt) {
		List<Message> messages = prompt.getInstructions();
		Message last = messages.get(messages.size() - 1);
		AssistantMessage answer;
		if (last instanceof ToolResponseMessage toolResponse) {
			answer = new AssistantMessage("The tool answered: " + toolResponse.getResponses().get(0).responseData());
		}
		else {
			String[] request = last.getText().split(" ", 3); // call TOOL ARGUMENTS
			answer = AssistantMessage.builder()
				.content("")
				.toolCalls(List.of(new AssistantMessage.ToolCall("call-" + request[1], "function", request[1],
						request[2])))
				.build();
		}
		return new ChatResponse(List.of(new Generation(answer)));
	}

	@Override
	public ChatOptions getOptions() {
		return DefaultToolCallingChatOptions.builder().build();
	}

}

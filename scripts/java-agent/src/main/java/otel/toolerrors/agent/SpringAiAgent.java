package otel.toolerrors.agent;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A Spring AI agent, one ChatClient run per tool, each tool failing for real. Spring AI records each
 * tool call as a Micrometer observation; Spring Boot's OpenTelemetry starter exports it as a span
 * over OTLP (application.properties). The spans are flushed when the context closes.
 */
@SpringBootApplication
public class SpringAiAgent {

	/** Each tool and the arguments the scripted model calls it with. */
	private static final Map<String, String> CALLS = new LinkedHashMap<>();

	static {
		CALLS.put("get_weather", "{\"city\": \"Lyon\"}");
		CALLS.put("search_news", "{\"query\": \"otel\"}");
		CALLS.put("get_account", "{\"user\": \"ada\"}");
		CALLS.put("get_stock", "{\"symbol\": \"ACME\"}");
		CALLS.put("get_rates", "{\"currency\": \"EUR\"}");
		CALLS.put("get_fx", "{\"pair\": \"EURUSD\"}");
		CALLS.put("get_quote", "{\"topic\": \"otel\"}");
		CALLS.put("lookup_order", "{\"orderId\": \"42\"}");
	}

	@Bean
	ChatModel scriptedChatModel() {
		return new ScriptedChatModel();
	}

	public static void main(String[] args) throws Exception {
		try (FlakyServer server = new FlakyServer();
				ConfigurableApplicationContext context = SpringApplication.run(SpringAiAgent.class, args)) {
			HttpTools tools = new HttpTools(server.baseUrl(), FlakyServer.refusedUrl());
			ChatClient client = context.getBean(ChatClient.Builder.class).defaultTools(tools).build();
			for (Map.Entry<String, String> call : CALLS.entrySet()) {
				try {
					String answer = client.prompt("call " + call.getKey() + " " + call.getValue()).call().content();
					System.out.println(call.getKey() + ": " + answer);
				}
				catch (RuntimeException ex) {
					// spring.ai.tools.throw-exception-on-error=true: the tool's failure ends the run
					System.out.println(call.getKey() + " failed: " + ex);
				}
			}
		}
	}

}

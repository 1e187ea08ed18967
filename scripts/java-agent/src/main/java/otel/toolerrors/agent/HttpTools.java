package otel.toolerrors.agent;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.web.client.RestClient;

/**
 * The agent's tools, each calling the flaky server (or a closed port) with the HTTP client Java
 * apps use, and failing as that client fails. Every URL carries an API key, in its query or its
 * userinfo: where a client's error quotes the URL, the collector must scrub it.
 */
public class HttpTools {

	private final String base;

	private final String refused;

	private final String key = System.getenv().getOrDefault("E2E_AGENT_SECRET", "not-a-real-key");

	private final RestClient restClient = RestClient.create();

	private final HttpClient httpClient = HttpClient.newHttpClient();

	private final OkHttpClient okHttp = new OkHttpClient.Builder().readTimeout(300, TimeUnit.MILLISECONDS).build();

	HttpTools(String base, String refused) {
		this.base = base;
		this.refused = refused;
	}

	private String url(String root, String path, String query) {
		return root + path + "?" + query + "&api_key=" + URLEncoder.encode(this.key, StandardCharsets.UTF_8);
	}

	/** A URL with the key as basic-auth userinfo, as some services take it. */
	private String userinfoUrl(String root, String path, String query) {
		return root.replace("://", "://agent:" + URLEncoder.encode(this.key, StandardCharsets.UTF_8) + "@") + path + "?"
				+ query;
	}

	@Tool(name = "get_weather", description = "The weather for a city.")
	public String getWeather(String city) {
		// RestClient: HttpServerErrorException$ServiceUnavailable
		return this.restClient.get().uri(url(this.base, "/503/weather", "city=" + city)).retrieve().body(String.class);
	}

	@Tool(name = "search_news", description = "News about a topic.")
	public String searchNews(String query) {
		// RestClient: HttpClientErrorException$TooManyRequests, the answer with Retry-After
		return this.restClient.get().uri(url(this.base, "/429/news", "q=" + query)).retrieve().body(String.class);
	}

	@Tool(name = "get_account", description = "The user's account.")
	public String getAccount(String user) {
		// RestClient: HttpClientErrorException$Unauthorized
		return this.restClient.get().uri(url(this.base, "/401/account", "user=" + user)).retrieve().body(String.class);
	}

	@Tool(name = "get_stock", description = "A stock's price.")
	public String getStock(String symbol) throws IOException, InterruptedException {
		// java.net.http: HttpTimeoutException
		HttpRequest request = HttpRequest.newBuilder(URI.create(url(this.base, "/slow/stock", "symbol=" + symbol)))
			.timeout(Duration.ofMillis(300))
			.build();
		return this.httpClient.send(request, HttpResponse.BodyHandlers.ofString()).body();
	}

	@Tool(name = "get_rates", description = "Exchange rates, from a service that is down.")
	public String getRates(String currency) throws IOException, InterruptedException {
		// java.net.http: ConnectException
		HttpRequest request = HttpRequest.newBuilder(URI.create(url(this.refused, "/rates", "base=" + currency))).build();
		return this.httpClient.send(request, HttpResponse.BodyHandlers.ofString()).body();
	}

	@Tool(name = "get_fx", description = "Foreign exchange quotes, from a service that is down.")
	public String getFx(String pair) {
		// RestClient: ResourceAccessException, whose message quotes the URL (its userinfo, not its query)
		return this.restClient.get().uri(userinfoUrl(this.refused, "/fx", "pair=" + pair)).retrieve().body(String.class);
	}

	@Tool(name = "get_quote", description = "A quote of the day.")
	public String getQuote(String topic) throws IOException {
		// OkHttp: SocketTimeoutException
		Request request = new Request.Builder().url(url(this.base, "/slow/quote", "topic=" + topic)).build();
		try (Response response = this.okHttp.newCall(request).execute()) {
			return response.body().string();
		}
	}

	@Tool(name = "lookup_order", description = "An order's status; failures come back as an error result.")
	public String lookupOrder(String orderId) throws IOException, InterruptedException {
		// The tool returns its failure to the model rather than throwing it.
		HttpRequest request = HttpRequest.newBuilder(URI.create(url(this.base, "/503/orders", "id=" + orderId)))
			.build();
		HttpResponse<String> response = this.httpClient.send(request, HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() == 503) {
			return "{\"error\": \"order service answered HTTP 503 Service Unavailable\"}";
		}
		return response.body();
	}

}

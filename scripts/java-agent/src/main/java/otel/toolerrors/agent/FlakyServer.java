package otel.toolerrors.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * The local server the tools call, on 127.0.0.1: /503, /429 (with Retry-After), /401, /slow (answers
 * after 2 s, past the tools' client timeouts), anything else 200.
 */
final class FlakyServer implements AutoCloseable {

	private final HttpServer server;

	FlakyServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.setExecutor(Executors.newCachedThreadPool(runnable -> {
			Thread thread = new Thread(runnable, "flaky-server");
			thread.setDaemon(true);
			return thread;
		}));
		this.server.createContext("/", FlakyServer::answer);
		this.server.start();
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	String baseUrl() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/** A 127.0.0.1 URL whose port was just closed: a connection to it is refused. */
	static String refusedUrl() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return "http://127.0.0.1:" + socket.getLocalPort();
		}
	}

	private static void answer(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		int status = 200;
		if (path.startsWith("/503")) {
			status = 503;
		}
		else if (path.startsWith("/429")) {
			status = 429;
			exchange.getResponseHeaders().add("Retry-After", "2");
		}
		else if (path.startsWith("/401")) {
			status = 401;
		}
		else if (path.startsWith("/slow")) {
			try {
				Thread.sleep(2000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		byte[] body = ("{\"ok\": " + (status == 200) + "}").getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		try {
			exchange.sendResponseHeaders(status, body.length);
			exchange.getResponseBody().write(body);
		}
		catch (IOException ex) {
			// the client gave up (its timeout)
		}
		exchange.close();
	}

}

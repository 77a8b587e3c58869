package io.baton.node.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers what Jetty refuses before Javalin sees it (a URI or headers too long, a request it cannot
 * parse) with a problem body like every other error, never an HTML page or a stack trace.
 */
final class ProblemErrorHandler extends ErrorHandler {
  private final RequestLimits limits;

  ProblemErrorHandler(RequestLimits limits) {
    this.limits = limits;
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback) {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, Problem.CONTENT_TYPE);
    response.write(true, ByteBuffer.wrap(body(code, message)), callback);
  }

  private byte[] body(int code, String message) {
    String reason = HttpStatus.getMessage(code);
    String detail =
        switch (code) {
          case 414 ->
              "The request URI is longer than the node accepts (the request line and headers"
                  + " together may have at most "
                  + limits.maxHeaderSize()
                  + " bytes, "
                  + RequestLimits.MAX_HEADER_SIZE_KEY
                  + ")";
          case 431 ->
              "The request headers are larger than the limit of "
                  + limits.maxHeaderSize()
                  + " bytes ("
                  + RequestLimits.MAX_HEADER_SIZE_KEY
                  + ")";
          default -> message == null || message.isBlank() ? reason : message;
        };
    Problem problem =
        Problem.of(
            code,
            code >= 500 ? "internal-error" : "http-" + code,
            reason,
            code >= 500
                ? "The node could not complete the request; its log has the details"
                : detail);
    return Json.write(problem).getBytes(StandardCharsets.UTF_8);
  }
}

package io.baton.node.http;

/**
 * Size limits on what a request may carry, beyond the body's ({@link HttpSettings#maxBodySize}):
 * each is answered with a problem body that names the limit and its setting.
 *
 * @param maxFlowSize the largest flow definition {@code POST /api/v1/flows} accepts, in bytes (413)
 * @param maxInputSize the largest run input ({@code POST /api/v1/runs}) or event data ({@code POST
 *     /api/v1/events}) accepted, in bytes of JSON (413)
 * @param maxHeaderSize the largest request line and headers Jetty accepts, in bytes (431, the
 *     status HTTP defines for headers)
 */
public record RequestLimits(long maxFlowSize, long maxInputSize, int maxHeaderSize) {
  public static final long DEFAULT_MAX_FLOW_SIZE = 256 * 1024;
  public static final long DEFAULT_MAX_INPUT_SIZE = 256 * 1024;
  public static final int DEFAULT_MAX_HEADER_SIZE = 8 * 1024;
  public static final String MAX_FLOW_SIZE_KEY = "http.maxFlowSize";
  public static final String MAX_INPUT_SIZE_KEY = "http.maxInputSize";
  public static final String MAX_HEADER_SIZE_KEY = "http.maxHeaderSize";

  public RequestLimits {
    requirePositive(maxFlowSize, MAX_FLOW_SIZE_KEY);
    requirePositive(maxInputSize, MAX_INPUT_SIZE_KEY);
    if (maxHeaderSize < 1024) {
      throw new IllegalArgumentException(
          MAX_HEADER_SIZE_KEY + " must be at least 1024 bytes, got " + maxHeaderSize);
    }
  }

  public static RequestLimits defaults() {
    return new RequestLimits(
        DEFAULT_MAX_FLOW_SIZE, DEFAULT_MAX_INPUT_SIZE, DEFAULT_MAX_HEADER_SIZE);
  }

  /**
   * @throws PayloadTooLargeException {@code size} is beyond {@code limit}
   */
  static void check(String what, long size, long limit, String key) {
    if (size > limit) {
      throw new PayloadTooLargeException(
          what
              + " is "
              + size
              + " bytes, larger than the limit of "
              + limit
              + " bytes ("
              + key
              + ")");
    }
  }

  private static void requirePositive(long value, String key) {
    if (value < 1) {
      throw new IllegalArgumentException(key + " must be at least 1 byte, got " + value);
    }
  }
}

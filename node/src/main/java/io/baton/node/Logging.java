package io.baton.node;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/** Sets up the node's logs: one line per event on stdout, as text or as JSON objects. */
final class Logging {
  private Logging() {}

  static void configure(String format) {
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("console");
    console.setEncoder(encoder(context, format));
    console.start();
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(console);
    context.getLogger("io.grpc").setLevel(Level.WARN);
    context.getLogger("io.netty").setLevel(Level.WARN);
    context.getLogger("org.eclipse.jetty").setLevel(Level.WARN);
    context.getLogger("com.zaxxer.hikari").setLevel(Level.WARN);
    context.getLogger("org.flywaydb").setLevel(Level.WARN);
  }

  private static Encoder<ILoggingEvent> encoder(LoggerContext context, String format) {
    if (format.equals("json")) {
      JsonEncoder json = new JsonEncoder();
      json.setContext(context);
      json.setWithFormattedMessage(true);
      json.setWithMessage(false);
      json.setWithArguments(false);
      json.setWithContext(false);
      json.setWithSequenceNumber(false);
      json.setWithNanoseconds(false);
      json.start();
      return json;
    }
    PatternLayoutEncoder text = new PatternLayoutEncoder();
    text.setContext(context);
    text.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{24} - %msg%n");
    text.start();
    return text;
  }
}

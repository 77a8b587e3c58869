package io.baton.journal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.UncheckedIOException;
import java.util.UUID;

/**
 * The JSON form of journal events and checkpoints. Each event carries its type tag in the field
 * {@code type}; decoding data with an unknown tag fails with a {@link JournalCodecException} that
 * names the tag and the entry, never silently. Thread-safe.
 */
public final class JournalCodec {
  private static final ObjectMapper MAPPER = newMapper();

  private JournalCodec() {}

  /** A mapper configured the way the journal encodes: ISO-8601 instants, no nulls written. */
  public static ObjectMapper newMapper() {
    return new ObjectMapper()
        .registerModule(new JavaTimeModule())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
        .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL);
  }

  /** The shared mapper; callers must not reconfigure it. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static String encode(JournalEvent event) {
    try {
      return MAPPER.writeValueAsString(event);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("cannot encode journal event " + event, e);
    }
  }

  /**
   * Decodes an event stored at {@code seq} of {@code rootRunId} (both only name the entry in
   * errors).
   */
  public static JournalEvent decode(String json, UUID rootRunId, long seq) {
    try {
      return MAPPER.readValue(json, JournalEvent.class);
    } catch (InvalidTypeIdException e) {
      throw new JournalCodecException(
          "unknown journal event type '"
              + e.getTypeId()
              + "' in entry seq "
              + seq
              + " of root run "
              + rootRunId,
          rootRunId,
          e);
    } catch (JsonProcessingException e) {
      throw new JournalCodecException(
          "malformed journal event in entry seq " + seq + " of root run " + rootRunId,
          rootRunId,
          e);
    }
  }

  public static JsonNode toTree(Object value) {
    return MAPPER.valueToTree(value);
  }

  public static <T> T fromTree(JsonNode tree, Class<T> type) {
    try {
      return MAPPER.treeToValue(tree, type);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("cannot decode " + type.getSimpleName(), e);
    }
  }
}

package io.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.journal.JournalCodec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The output-size limit skips encoding when {@link EntrySize#jsonUpperBound} is within it, so the
 * bound must never be below the real encoded size, whatever the value holds.
 */
class EntrySizeTest {
  private static long encoded(JsonNode node) throws Exception {
    return JournalCodec.mapper().writeValueAsBytes(node).length;
  }

  @Test
  void the_bound_covers_escapes_multibyte_text_and_long_numbers() throws Exception {
    ObjectNode hostile = JournalCodec.mapper().createObjectNode();
    hostile.put("control", "\u0001\u0002\u001f\"\\\n".repeat(50));
    hostile.put("cjk", "漢字かな".repeat(50));
    hostile.put("emoji", "😀".repeat(50));
    hostile.put("big", new BigDecimal("1" + "0".repeat(500) + ".000001"));
    hostile.put("huge", new BigInteger("9".repeat(300)));
    hostile.put("min", Long.MIN_VALUE);
    hostile.put("tiny", -1.0e-300);
    hostile.putArray("nested").addObject().put("\u0000key\u0007", true).putNull("n");
    assertThat(EntrySize.jsonUpperBound(hostile)).isGreaterThanOrEqualTo(encoded(hostile));
  }

  @Test
  void the_bound_covers_random_documents() throws Exception {
    Random random = new Random(11);
    for (int i = 0; i < 500; i++) {
      JsonNode document = randomNode(random, 4);
      assertThat(EntrySize.jsonUpperBound(document))
          .as("document %d: %s", i, document)
          .isGreaterThanOrEqualTo(encoded(document));
    }
  }

  private static JsonNode randomNode(Random random, int depth) {
    var factory = JournalCodec.mapper().getNodeFactory();
    switch (depth == 0 ? random.nextInt(5) : random.nextInt(7)) {
      case 0:
        return factory.textNode(randomText(random));
      case 1:
        return factory.numberNode(random.nextLong());
      case 2:
        return factory.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(600) - 300));
      case 3:
        return factory.booleanNode(random.nextBoolean());
      case 4:
        return factory.nullNode();
      case 5:
        ObjectNode object = factory.objectNode();
        for (int i = random.nextInt(5); i > 0; i--) {
          object.set(randomText(random), randomNode(random, depth - 1));
        }
        return object;
      default:
        ArrayNode array = factory.arrayNode();
        for (int i = random.nextInt(5); i > 0; i--) {
          array.add(randomNode(random, depth - 1));
        }
        return array;
    }
  }

  private static String randomText(Random random) {
    StringBuilder text = new StringBuilder();
    for (int i = random.nextInt(20); i > 0; i--) {
      text.appendCodePoint(
          switch (random.nextInt(4)) {
            case 0 -> random.nextInt(0x20);
            case 1 -> 0x20 + random.nextInt(0x60);
            case 2 -> 0x800 + random.nextInt(0xD000 - 0x800);
            default -> 0x10000 + random.nextInt(0x1000);
          });
    }
    return text.toString();
  }
}

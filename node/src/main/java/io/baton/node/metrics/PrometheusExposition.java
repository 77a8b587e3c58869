package io.baton.node.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Dropwizard registry in the Prometheus text format, for any name anyone registers, with the
 * standard JVM series ({@code jvm_memory_used_bytes{area}}, GC, threads, {@code process_*}) first.
 *
 * <p>The rules, by Dropwizard type: a counter or meter is a counter named {@code <name>_total}; a
 * gauge of a number or boolean is a gauge (any other gauge is left out); a timer is a histogram in
 * seconds, {@code <name>_seconds}; a histogram is a histogram. Timers and histograms that {@link
 * NodeMetricRegistry} made have fixed buckets; any other is written as a summary of its sample.
 * Labels come from the name ({@link MetricName}). Names that would collide (two names that sanitize
 * alike, one family with two types, a sample name that another family writes) keep the first in
 * name order and log the other once, so one bad name never breaks the whole scrape. Thread-safe.
 */
public final class PrometheusExposition {
  private static final Logger log = LoggerFactory.getLogger(PrometheusExposition.class);
  private static final double NANOS_PER_SECOND = 1e9;

  private final MetricRegistry registry;
  private final PrometheusRegistry jvm = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final Set<String> reported = ConcurrentHashMap.newKeySet();

  public PrometheusExposition(MetricRegistry registry) {
    this.registry = registry;
    JvmMetrics.builder().register(jvm);
  }

  /** The content type of {@link #scrape()}: the Prometheus text format 0.0.4. */
  public String contentType() {
    return writer.getContentType();
  }

  /** The registry's metrics now, as one text document. */
  public byte[] scrape() {
    MetricSnapshots jvmSnapshots = jvm.scrape();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      writer.write(out, jvmSnapshots);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Families families = new Families(this::reportOnce);
    for (MetricSnapshot snapshot : jvmSnapshots) {
      families.reserve(snapshot.getMetadata().getPrometheusName());
    }
    new TreeMap<>(registry.getMetrics()).forEach((name, metric) -> add(families, name, metric));
    out.writeBytes(families.text().getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  private void add(Families families, String dropwizardName, Metric metric) {
    MetricName name = MetricName.parse(dropwizardName);
    String help = "Dropwizard " + dropwizardName.replaceAll("\\{.*", "");
    if (metric instanceof Counter counter) {
      families.counter(name, help, dropwizardName, counter.getCount());
    } else if (metric instanceof Timer timer) {
      timer(families, name, help, dropwizardName, timer);
    } else if (metric instanceof Meter meter) {
      families.counter(name, help, dropwizardName, meter.getCount());
    } else if (metric instanceof Histogram histogram) {
      histogram(families, name, help, dropwizardName, histogram);
    } else if (metric instanceof Gauge<?> gauge) {
      gauge(families, name, help, dropwizardName, gauge);
    }
  }

  private static void timer(
      Families families, MetricName name, String help, String dropwizardName, Timer timer) {
    String family = name.base().endsWith("_seconds") ? name.base() : name.base() + "_seconds";
    if (timer instanceof NodeMetricRegistry.BucketedTimer bucketed) {
      families.histogram(family, name, help, dropwizardName, bucketed.buckets(), NANOS_PER_SECOND);
    } else {
      families.summary(
          family,
          name,
          help,
          dropwizardName,
          timer.getSnapshot(),
          timer.getCount(),
          NANOS_PER_SECOND);
    }
  }

  private static void histogram(
      Families families, MetricName name, String help, String dropwizardName, Histogram histogram) {
    if (histogram instanceof NodeMetricRegistry.BucketedHistogram bucketed) {
      families.histogram(name.base(), name, help, dropwizardName, bucketed.buckets(), 1);
    } else {
      Snapshot snapshot = histogram.getSnapshot();
      families.summary(name.base(), name, help, dropwizardName, snapshot, histogram.getCount(), 1);
    }
  }

  private static void gauge(
      Families families, MetricName name, String help, String dropwizardName, Gauge<?> gauge) {
    Object value;
    try {
      value = gauge.getValue();
    } catch (RuntimeException failure) {
      return; // a gauge that cannot answer now is absent from this scrape, not a failed scrape
    }
    if (value instanceof Number number) {
      families.gauge(name, help, dropwizardName, number.doubleValue());
    } else if (value instanceof Boolean flag) {
      families.gauge(name, help, dropwizardName, flag ? 1 : 0);
    }
  }

  private void reportOnce(String dropwizardName, String why) {
    if (reported.add(dropwizardName)) {
      log.warn("metric {} is not exported: {}", dropwizardName, why);
    }
  }

  /** Why a name was left out, told once per name. */
  @FunctionalInterface
  interface Rejections {
    void reject(String dropwizardName, String why);
  }

  /** The names in one scrape as {@link Family families}, with the collision rules. */
  static final class Families {
    private final Map<String, Family> byName = new TreeMap<>();
    private final Map<String, String> sampleOwners = new TreeMap<>();
    private final Rejections rejections;

    Families(Rejections rejections) {
      this.rejections = rejections;
    }

    /** A family written elsewhere in the document: its sample names are taken. */
    void reserve(String family) {
      for (String suffix : new String[] {"", "_total", "_bucket", "_sum", "_count", "_created"}) {
        sampleOwners.put(family + suffix, family);
      }
    }

    void counter(MetricName name, String help, String dropwizardName, long count) {
      String base = name.base();
      String family = base.endsWith("_total") ? base : base + "_total";
      Family.Series series = open(family, Family.Type.COUNTER, name, help, dropwizardName);
      if (series != null) {
        series.sample("", Long.toString(count));
      }
    }

    void gauge(MetricName name, String help, String dropwizardName, double value) {
      Family.Series series = open(name.base(), Family.Type.GAUGE, name, help, dropwizardName);
      if (series != null) {
        series.sample("", number(value));
      }
    }

    void histogram(
        String family,
        MetricName name,
        String help,
        String dropwizardName,
        BucketedReservoir.Buckets buckets,
        double unitsPerValue) {
      Family.Series series = open(family, Family.Type.HISTOGRAM, name, help, dropwizardName);
      if (series == null) {
        return;
      }
      for (int i = 0; i < buckets.size(); i++) {
        String bound = bound(buckets.upperBound(i) / unitsPerValue);
        series.sample("_bucket", "le", bound, Long.toString(buckets.cumulativeCount(i)));
      }
      series.sample("_bucket", "le", "+Inf", Long.toString(buckets.count()));
      series.sample("_sum", number(buckets.sum() / unitsPerValue));
      series.sample("_count", Long.toString(buckets.count()));
    }

    void summary(
        String family,
        MetricName name,
        String help,
        String dropwizardName,
        Snapshot snapshot,
        long count,
        double unitsPerValue) {
      Family.Series series = open(family, Family.Type.SUMMARY, name, help, dropwizardName);
      if (series == null) {
        return;
      }
      series.sample("", "quantile", "0.5", number(snapshot.getMedian() / unitsPerValue));
      series.sample("", "quantile", "0.99", number(snapshot.get99thPercentile() / unitsPerValue));
      series.sample("_sum", number(snapshot.getMean() * count / unitsPerValue));
      series.sample("_count", Long.toString(count));
    }

    /** The series to write into, or null when the name collides (reported). */
    private Family.Series open(
        String familyName, Family.Type type, MetricName name, String help, String dropwizardName) {
      Family family = byName.get(familyName);
      if (family == null) {
        for (String sample : type.sampleNames(familyName)) {
          String owner = sampleOwners.get(sample);
          if (owner != null) {
            rejections.reject(dropwizardName, "its sample " + sample + " is written by " + owner);
            return null;
          }
        }
        family = new Family(familyName, type, help);
        byName.put(familyName, family);
        type.sampleNames(familyName).forEach(sample -> sampleOwners.put(sample, familyName));
      } else if (family.type() != type) {
        rejections.reject(dropwizardName, familyName + " is already a " + family.type());
        return null;
      }
      if (family.has(name.labels())) {
        rejections.reject(
            dropwizardName, familyName + name.labels() + " is taken by an earlier name");
        return null;
      }
      return family.series(name.labels());
    }

    String text() {
      StringBuilder out = new StringBuilder();
      byName.values().forEach(family -> family.writeTo(out));
      return out.toString();
    }

    private static String bound(double value) {
      return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    private static String number(double value) {
      if (Double.isNaN(value)) {
        return "NaN";
      }
      if (Double.isInfinite(value)) {
        return value > 0 ? "+Inf" : "-Inf";
      }
      return value == Math.rint(value) && Math.abs(value) < 1e15
          ? Long.toString((long) value)
          : Double.toString(value);
    }
  }
}

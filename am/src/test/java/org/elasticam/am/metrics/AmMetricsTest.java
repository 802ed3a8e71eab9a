package org.elasticam.am.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.impl.MetricsRecordImpl;
import org.junit.jupiter.api.Test;

class AmMetricsTest {

  @Test
  void visibleOverJmxUnderTheAmsName() throws Exception {
    AmMetrics m = new AmMetrics().register();
    try {
      m.observe(7, 5, 2, 3, 40, 10);
      m.requestsAdded(4);
      m.requestsAdded(3);
      m.requestsCancelled(2);
      m.containerAllocated();
      m.containerReleased();
      m.executorRemoved("idle", false);
      m.executorRemoved("failed", true);
      m.executorRemoved("app_end", false);
      m.executorRemoved("unheard-of", false);
      m.allocateTook(12);
      m.allocateTook(8);

      Map<String, Number> now = new HashMap<>();
      MetricsCollectorImpl collector = new MetricsCollectorImpl();
      m.getMetrics(collector, true);
      for (MetricsRecordImpl rec : collector.getRecords()) {
        assertEquals("elasticam", rec.context());
        for (AbstractMetric metric : rec.metrics()) {
          now.put(metric.name(), metric.value());
        }
      }
      assertEquals(7, now.get("TargetExecutors").intValue());
      assertEquals(5, now.get("RunningExecutors").intValue());
      assertEquals(3, now.get("PendingContainerRequests").intValue());
      assertEquals(40, now.get("PendingTasks").intValue());
      assertEquals(7L, now.get("ContainerRequestsAdded").longValue());
      assertEquals(2L, now.get("ContainerRequestsCancelled").longValue());
      assertEquals(1L, now.get("ExecutorsRemovedIdle").longValue());
      assertEquals(1L, now.get("ExecutorsRemovedFailed").longValue());
      assertEquals(1L, now.get("ExecutorsRemovedAppEnd").longValue());
      assertEquals(1L, now.get("ExecutorFailures").longValue());
      assertEquals(2L, now.get("AllocateLatencyNumCalls").longValue());
      assertEquals(10.0, now.get("AllocateLatencyAvgMillis").doubleValue(), 0.001);

      // The same names over JMX (values there are cached for the metrics period).
      MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
      ObjectName name = new ObjectName("Hadoop:service=ElasticAM,name=ElasticAM");
      for (String attr : List.of("TargetExecutors", "ContainerRequestsAdded", "ExecutorsRemovedPreempted",
          "AllocateLatencyAvgMillis")) {
        assertTrue(jmx.getAttribute(name, attr) instanceof Number, attr);
      }
    } finally {
      m.unregister();
    }
    assertTrue(ManagementFactory.getPlatformMBeanServer()
        .queryNames(new ObjectName("Hadoop:service=ElasticAM,name=ElasticAM"), null).isEmpty(), "unregistered");
  }
}

package org.elasticam.allocator.model;

/** A container request sent to the ResourceManager and not yet granted or cancelled. */
public record PendingAsk(AskId id, LocalityPreference locality, AskOrigin origin, long sentAtMs) {

  public boolean namesHost(String host) {
    return locality.hosts().contains(host);
  }

  public boolean namesRack(String rack) {
    return rack != null && locality.racks().contains(rack);
  }
}

package org.elasticam.shuffle.service.apps;

/** A path outside the directories an application may have the service read: answered with 403. */
public final class ConfinementException extends Exception {

  private static final long serialVersionUID = 1L;

  public ConfinementException(String message) {
    super(message);
  }
}

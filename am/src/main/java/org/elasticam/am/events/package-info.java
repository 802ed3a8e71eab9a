/** The event log (DESIGN §3) and the figures computed from the same events. */
package org.elasticam.am.events;

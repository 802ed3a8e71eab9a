/**
 * Time, injected: {@link org.elasticam.time.Clock} and its manual twin. Nothing outside this
 * package reads the wall clock directly.
 */
package org.elasticam.time;

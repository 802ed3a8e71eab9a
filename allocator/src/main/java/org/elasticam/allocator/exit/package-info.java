/** Container exit statuses and the one table that judges them. */
package org.elasticam.allocator.exit;

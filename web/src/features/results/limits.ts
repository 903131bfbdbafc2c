/** How many orders a list across patients shows at once (the server's QueueLimit). */
export const QUEUE_LIMIT = 50

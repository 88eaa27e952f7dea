import { ErrorRequestHandler, RequestHandler } from 'express';

/**
 * What a feature module mounts on the partners' app, in order: routers and the error handler
 * that turns their failures into the module's own error shape.
 */
export type Routes = (RequestHandler | ErrorRequestHandler)[];

import { Link } from '../router';
import { PageHeader } from '../components/page-header';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>This console has no such page, or your roles do not show it. <Link to="/">Go to the overview</Link>.</p>
    </>
  );
}
